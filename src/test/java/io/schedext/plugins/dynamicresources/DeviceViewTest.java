package io.schedext.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.plugins.dynamicresources.cel.CompiledSelector;
import io.schedext.plugins.dynamicresources.cel.DeviceSelectors;
import io.schedext.plugins.dynamicresources.cel.SelectorException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceViewTest {

  private static DeviceView gpu() {
    return new DeviceView(
        "driver",
        "pool",
        Dra.device("gpu-0", Dra.capacity("memory", "80Gi"), Dra.attrs("index", 3)));
  }

  @Test
  void answersEverySelectorRightPastTheNumberItRemembers() {
    DeviceView d = gpu();
    List<CompiledSelector> selectors = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      selectors.add(DeviceSelectors.compile("device.attributes[\"driver\"].index == " + (i % 5)));
    }
    // Twice over, so the second pass meets a memo that started over on the way.
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < selectors.size(); i++) {
        assertThat(d.matches(selectors.get(i)))
            .as("selector %d, pass %d", i, pass)
            .isEqualTo(i % 5 == 3);
      }
    }
  }

  @Test
  void aSelectorThatFailedFailsAgainWithTheSameError() {
    DeviceView d = gpu();
    CompiledSelector missing =
        DeviceSelectors.compile("device.attributes[\"driver\"].model == \"x\"");
    assertThatThrownBy(() -> d.matches(missing))
        .isInstanceOf(SelectorException.class)
        .hasMessage("no such key: model");
    assertThatThrownBy(() -> d.matches(missing))
        .isInstanceOf(SelectorException.class)
        .hasMessage("no such key: model");
  }
}

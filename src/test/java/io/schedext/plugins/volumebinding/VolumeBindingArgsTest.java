package io.schedext.plugins.volumebinding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PluginArgs;
import io.schedext.plugins.Names;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import org.junit.jupiter.api.Test;

/** VolumeBindingArgs defaults and validation. */
class VolumeBindingArgsTest {

  @Test
  void bindTimeoutDefaultsToTenMinutesAndMayBeSet() {
    ObjectStore store = new ObjectStore();
    assertThat(
            VolumeBinding.create(PluginArgs.none(), TestFrameworks.handle(store))
                .bindTimeoutSeconds())
        .isEqualTo(600);
    assertThat(
            VolumeBinding.create(
                    PluginArgs.of(
                        Names.VOLUME_BINDING, TestFrameworks.json("{\"bindTimeoutSeconds\":30}")),
                    TestFrameworks.handle(store))
                .bindTimeoutSeconds())
        .isEqualTo(30);
    assertThat(
            VolumeBinding.create(
                    PluginArgs.of(
                        Names.VOLUME_BINDING, TestFrameworks.json("{\"bindTimeoutSeconds\":0}")),
                    TestFrameworks.handle(store))
                .bindTimeoutSeconds())
        .isZero();
  }

  @Test
  void aNegativeBindTimeoutIsRejected() {
    assertThatThrownBy(
            () ->
                VolumeBinding.create(
                    PluginArgs.of(
                        Names.VOLUME_BINDING, TestFrameworks.json("{\"bindTimeoutSeconds\":-1}")),
                    TestFrameworks.handle(new ObjectStore())))
        .isInstanceOf(FrameworkException.class)
        .hasMessage(
            "bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value");
  }

  @Test
  void aShapeIsAcceptedWithoutTheScoringGate() {
    VolumeBindingArgs args =
        PluginArgs.of(
                Names.VOLUME_BINDING,
                TestFrameworks.json(
                    "{\"shape\":[{\"utilization\":0,\"score\":0},{\"utilization\":100,\"score\":10}]}"))
            .as(VolumeBindingArgs.class);
    assertThat(args)
        .isEqualTo(
            new VolumeBindingArgs(
                600L,
                List.of(
                    new VolumeBindingArgs.UtilizationShapePoint(0, 0),
                    new VolumeBindingArgs.UtilizationShapePoint(100, 10))));
  }
}

package io.schedext.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SliceViewsTest {

  private static List<String> deviceNames(List<Pools.Pool> pools) {
    List<String> out = new ArrayList<>();
    for (Pools.Pool p : pools) {
      for (SliceView s : p.slices()) {
        for (DeviceView d : s.devices()) {
          out.add(p.id() + "/" + d.name());
        }
      }
    }
    return out;
  }

  @Test
  void aNodeWhoseSlicesAreTheSameObjectsGetsTheSamePools() {
    SliceViews views = new SliceViews();
    ResourceSlice s = Dra.sliceWithDevices("s", "node-1", "pool", "driver", 2);
    List<Pools.Pool> first = views.ofNode("node-1", List.of(s));
    // A new list of the same slices, as a new snapshot of the index hands out.
    assertThat(views.ofNode("node-1", new ArrayList<>(List.of(s)))).isSameAs(first);
    assertThat(deviceNames(first)).containsExactly("driver/pool/device-0", "driver/pool/device-1");
  }

  @Test
  void aNodeWhoseSliceWasReplacedGetsTheNewDevices() {
    SliceViews views = new SliceViews();
    views.ofNode("node-1", List.of(Dra.sliceWithDevices("s", "node-1", "pool", "driver", 2)));
    ResourceSlice newer = Dra.sliceWithDevices("s", "node-1", "pool", "driver", 3);
    assertThat(deviceNames(views.ofNode("node-1", List.of(newer))))
        .containsExactly("driver/pool/device-0", "driver/pool/device-1", "driver/pool/device-2");
  }

  @Test
  void aNodeThatGainedASliceGetsBothPools() {
    SliceViews views = new SliceViews();
    ResourceSlice a = Dra.sliceWithOneDevice("a", "node-1", "pool-a", "driver");
    views.ofNode("node-1", List.of(a));
    ResourceSlice b = Dra.sliceWithOneDevice("b", "node-1", "pool-b", "driver");
    assertThat(deviceNames(views.ofNode("node-1", List.of(a, b))))
        .containsExactly("driver/pool-a/device-1", "driver/pool-b/device-1");
  }

  @Test
  void aNodeWithoutSlicesHasNoPools() {
    assertThat(new SliceViews().ofNode("node-1", List.of())).isEmpty();
  }

  @Test
  void eachNodeKeepsItsOwnPools() {
    SliceViews views = new SliceViews();
    ResourceSlice one = Dra.sliceWithOneDevice("one", "node-1", "pool-1", "driver");
    ResourceSlice two = Dra.sliceWithOneDevice("two", "node-2", "pool-2", "driver");
    views.ofNode("node-1", List.of(one));
    assertThat(deviceNames(views.ofNode("node-2", List.of(two))))
        .containsExactly("driver/pool-2/device-1");
  }
}

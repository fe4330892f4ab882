package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TakenDevicesTest {

  private static final DeviceId A0 = new DeviceId("gpu.example.com", "node-a", "gpu-0");
  private static final DeviceId A1 = new DeviceId("gpu.example.com", "node-a", "gpu-1");
  private static final DeviceId B0 = new DeviceId("gpu.example.com", "node-b", "gpu-0");
  private static final DeviceId N0 = new DeviceId("nic.example.com", "node-a", "gpu-0");

  @Test
  void aDeviceIsTakenOnlyInItsOwnDriverAndPool() {
    TakenDevices t = TakenDevices.of(List.of(A0, A1));
    assertThat(t.contains(A0)).isTrue();
    assertThat(t.contains(A1)).isTrue();
    assertThat(t.contains(B0)).as("same name, other pool").isFalse();
    assertThat(t.contains(N0)).as("same pool and name, other driver").isFalse();
    assertThat(t.inPool("gpu.example.com", "node-a")).containsExactlyInAnyOrder("gpu-0", "gpu-1");
    assertThat(t.inPool("gpu.example.com", "node-b")).isEmpty();
    assertThat(t.inPool("nic.example.com", "node-a")).isEmpty();
    assertThat(t.size()).isEqualTo(2);
  }

  @Test
  void plusLeavesTheOriginalAsItWasAndCountsADeviceOnce() {
    TakenDevices base = TakenDevices.of(List.of(A0));
    TakenDevices more = base.plus(List.of(A1, B0, A0, N0));
    assertThat(base.toSet()).containsExactly(A0);
    assertThat(base.inPool("gpu.example.com", "node-a")).containsExactly("gpu-0");
    assertThat(more.toSet()).containsExactlyInAnyOrder(A0, A1, B0, N0);
    assertThat(more.size()).isEqualTo(4);
    assertThat(base.plus(List.of())).isSameAs(base);
  }

  @Test
  void nothingIsTakenInNone() {
    assertThat(TakenDevices.NONE.isEmpty()).isTrue();
    assertThat(TakenDevices.NONE.contains(A0)).isFalse();
    assertThat(TakenDevices.of(List.of(A0)).isEmpty()).isFalse();
  }

  @Test
  void anUpdateCopiesOnlyThePoolsItTouches() {
    TakenDevices base = TakenDevices.of(List.of(A0, A1, B0));
    var poolB = base.inPool("gpu.example.com", "node-b");
    TakenDevices less = base.update(List.of(A1, N0), id -> id.equals(N0));
    assertThat(less.toSet()).containsExactlyInAnyOrder(A0, B0, N0);
    assertThat(less.size()).isEqualTo(3);
    assertThat(less.inPool("gpu.example.com", "node-b")).as("untouched").isSameAs(poolB);
    assertThat(less.inPool("gpu.example.com", "node-a"))
        .isNotSameAs(base.inPool("gpu.example.com", "node-a"));
    assertThat(base.toSet()).as("unchanged").containsExactlyInAnyOrder(A0, A1, B0);
    TakenDevices none = less.update(List.of(A0, B0, N0, A1), id -> false);
    assertThat(none.isEmpty()).isTrue();
    assertThat(none.inPool("gpu.example.com", "node-a")).isEmpty();
    assertThat(less.update(List.of(A0), id -> true)).as("already taken").isNotNull();
    assertThat(less.update(List.of(A0), id -> true).inPool("gpu.example.com", "node-a"))
        .isSameAs(less.inPool("gpu.example.com", "node-a"));
  }
}

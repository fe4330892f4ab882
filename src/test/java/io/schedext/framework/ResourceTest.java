package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Integer resources of {@link Resource}, as upstream's TestNewResource and the Add/Sub helpers. */
class ResourceTest {

  @Test
  void anEmptyListIsAnEmptyResource() {
    assertThat(Resource.fromQuantities(Map.of())).isEqualTo(new Resource());
    assertThat(Resource.fromQuantities(null)).isEqualTo(new Resource());
  }

  @Test
  void everyKindOfResourceIsConverted() {
    Resource r =
        Resource.fromQuantities(
            Map.of(
                "cpu",
                new Quantity("4m"),
                "memory",
                new Quantity("2000"),
                "pods",
                new Quantity("80"),
                "ephemeral-storage",
                new Quantity("5000"),
                "scalar.test/scalar1",
                new Quantity("1"),
                "hugepages-test",
                new Quantity("2"),
                "attachable-volumes-csi-x",
                new Quantity("39"),
                "kubernetes.io/batch-cpu",
                new Quantity("7"),
                "storage",
                new Quantity("9")));

    Resource want = new Resource(4, 2000, 5000, 80);
    want.setScalar("scalar.test/scalar1", 1);
    want.setScalar("hugepages-test", 2);
    want.setScalar("attachable-volumes-csi-x", 39);
    want.setScalar("kubernetes.io/batch-cpu", 7);
    assertThat(r).isEqualTo(want);
    assertThat(r.get("cpu")).isEqualTo(4);
    assertThat(r.get("memory")).isEqualTo(2000);
    assertThat(r.get("pods")).isEqualTo(80);
    assertThat(r.get("ephemeral-storage")).isEqualTo(5000);
    assertThat(r.get("hugepages-test")).isEqualTo(2);
    assertThat(r.get("storage")).isZero();
    assertThat(r.hasScalars()).isTrue();
  }

  @Test
  void addSubtractAndCopy() {
    Resource a = new Resource(100, 200, 300, 4);
    a.setScalar("x/y", 5);
    Resource b = new Resource(1, 2, 3, 0);
    b.addScalar("x/y", 1);
    b.addScalar("x/z", 2);

    Resource c = a.copy();
    c.add(b);
    assertThat(c.milliCpu()).isEqualTo(101);
    assertThat(c.memory()).isEqualTo(202);
    assertThat(c.ephemeralStorage()).isEqualTo(303);
    assertThat(c.allowedPodNumber()).isEqualTo(4);
    assertThat(c.scalarResources()).isEqualTo(Map.of("x/y", 6L, "x/z", 2L));
    c.subtract(b);
    assertThat(c.scalarResources())
        .as("subtracting leaves zero entries, as upstream")
        .isEqualTo(Map.of("x/y", 5L, "x/z", 0L));
    assertThat(a.scalarResources()).isEqualTo(Map.of("x/y", 5L));
    assertThat(new Resource().scalar("none")).isZero();
  }
}

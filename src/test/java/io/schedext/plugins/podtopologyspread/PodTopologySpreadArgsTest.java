package io.schedext.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.cluster.ObjectStore;
import io.schedext.framework.CycleState;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import io.schedext.testing.TestFrameworks;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The PodTopologySpread arguments: v1 defaults and upstream's ValidatePodTopologySpreadArgs. */
class PodTopologySpreadArgsTest {

  record Case(String name, String json, String wantError) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("no arguments default to System defaulting", "{}", null),
        new Case(
            "List defaulting with valid constraints is accepted",
            "{\"defaultingType\":\"List\",\"defaultConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"zone\","
                + "\"whenUnsatisfiable\":\"DoNotSchedule\"},{\"maxSkew\":2,\"topologyKey\":\"zone\","
                + "\"whenUnsatisfiable\":\"ScheduleAnyway\"}]}",
            null),
        new Case(
            "List defaulting without constraints is accepted",
            "{\"defaultingType\":\"List\"}",
            null),
        new Case(
            "an unknown defaulting type is rejected with the allowed values",
            "{\"defaultingType\":\"Some\"}",
            "defaultingType: Unsupported value: \"Some\": supported values: \"System\", \"List\""),
        new Case(
            "System defaulting with listed constraints is rejected",
            "{\"defaultConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"zone\",\"whenUnsatisfiable\":\"DoNotSchedule\"}]}",
            "defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty"),
        new Case(
            "a non-positive maxSkew is rejected",
            "{\"defaultingType\":\"List\",\"defaultConstraints\":[{\"maxSkew\":0,\"topologyKey\":\"zone\","
                + "\"whenUnsatisfiable\":\"DoNotSchedule\"}]}",
            "defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)"),
        new Case(
            "an empty topology key is rejected",
            "{\"defaultingType\":\"List\",\"defaultConstraints\":[{\"maxSkew\":1,"
                + "\"whenUnsatisfiable\":\"DoNotSchedule\"}]}",
            "defaultConstraints[0].topologyKey: Required value: can not be empty"),
        new Case(
            "an unknown whenUnsatisfiable is rejected with the allowed values",
            "{\"defaultingType\":\"List\",\"defaultConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"zone\","
                + "\"whenUnsatisfiable\":\"Never\"}]}",
            "defaultConstraints[0].whenUnsatisfiable: Unsupported value: \"Never\": supported values: "
                + "\"DoNotSchedule\", \"ScheduleAnyway\""),
        new Case(
            "a missing whenUnsatisfiable is rejected",
            "{\"defaultingType\":\"List\",\"defaultConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"zone\"}]}",
            "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty"),
        new Case(
            "a label selector in a default constraint is forbidden",
            "{\"defaultingType\":\"List\",\"defaultConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"zone\","
                + "\"whenUnsatisfiable\":\"DoNotSchedule\",\"labelSelector\":{}}]}",
            "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they "
                + "deduced for each pod"),
        new Case(
            "a repeated key and action pair is a duplicate",
            "{\"defaultingType\":\"List\",\"defaultConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"zone\","
                + "\"whenUnsatisfiable\":\"DoNotSchedule\"},{\"maxSkew\":2,\"topologyKey\":\"zone\","
                + "\"whenUnsatisfiable\":\"DoNotSchedule\"}]}",
            "defaultConstraints[1]: Duplicate value: \"{zone, DoNotSchedule}\""),
        new Case(
            "several errors are listed together",
            "{\"defaultingType\":\"List\",\"defaultConstraints\":[{\"maxSkew\":-1,\"topologyKey\":\"zone\","
                + "\"whenUnsatisfiable\":\"DoNotSchedule\",\"labelSelector\":{}}]}",
            "[defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range (0, inf), "
                + "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they "
                + "deduced for each pod]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void create(Case c) {
    PluginArgs args = PluginArgs.of(Names.POD_TOPOLOGY_SPREAD, TestFrameworks.json(c.json()));
    if (c.wantError() == null) {
      assertThat(PodTopologySpread.create(args, TestFrameworks.handle(new ObjectStore())).name())
          .isEqualTo(Names.POD_TOPOLOGY_SPREAD);
    } else {
      assertThatThrownBy(
              () -> PodTopologySpread.create(args, TestFrameworks.handle(new ObjectStore())))
          .isInstanceOf(FrameworkException.class)
          .hasMessage("invalid args for plugin PodTopologySpread: " + c.wantError());
    }
  }

  @Test
  void defaultsAreSystemDefaultingWithoutListedConstraints() {
    PodTopologySpreadArgs a = new PodTopologySpreadArgs(null, null);
    assertThat(a.defaultingType()).isEqualTo(PodTopologySpreadArgs.SYSTEM_DEFAULTING);
    assertThat(a.defaultConstraints()).isEmpty();
  }

  @Test
  void systemDefaultsApplyOnlyWhenThePodHasNoConstraints() {
    // System defaults are soft only: nothing to filter even for a pod a service selects.
    ObjectStore store = new ObjectStore();
    store.put(
        new io.fabric8.kubernetes.api.model.ServiceBuilder()
            .withNewMetadata()
            .withName("s")
            .withNamespace("default")
            .endMetadata()
            .withNewSpec()
            .addToSelector("app", "web")
            .endSpec()
            .build());
    PodTopologySpread plugin = Fixtures.systemPlugin(store);
    CycleState state =
        Fixtures.state(
            Fixtures.snapshot(
                List.of(Fixtures.node("n1", Fixtures.HOSTNAME, "n1").obj()), List.of()));
    assertThat(plugin.preFilter(state, PodInfo.of(Fixtures.pod("p", "app", "web").obj())).status())
        .isEqualTo(Status.skip());
  }

  @Test
  void anEmptySnapshotSkipsScoring() {
    PodTopologySpread plugin = Fixtures.listPlugin(new ObjectStore(), List.of());
    PodInfo pod =
        PodInfo.of(
            Fixtures.pod("p", "foo", "")
                .spreadConstraint(Fixtures.spread(1, "zone", Fixtures.SA, Fixtures.FOO))
                .obj());
    assertThat(plugin.preScore(Fixtures.state(List.of()), pod, List.of())).isEqualTo(Status.skip());
  }
}

package io.schedext.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.framework.Profile.PluginRef;
import io.schedext.framework.Registry;
import io.schedext.plugins.defaultpreemption.DefaultPreemptionArgs;
import io.schedext.plugins.interpodaffinity.InterPodAffinityArgs;
import io.schedext.plugins.nodeaffinity.NodeAffinityArgs;
import io.schedext.plugins.noderesources.NodeResourcesBalancedAllocationArgs;
import io.schedext.plugins.noderesources.NodeResourcesFitArgs;
import io.schedext.plugins.podtopologyspread.PodTopologySpreadArgs;
import io.schedext.plugins.volumebinding.VolumeBindingArgs;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The in-tree registry: one registration per plugin, with the args type profiles default its args
 * by.
 */
class InTreeRegistryTest {

  @Test
  void upstreamsV1ArgsKindsAreTypedAndTheLegacyPluginsAreNot() {
    Registry r = InTreeRegistry.create();
    Map<String, Class<?>> typed = new LinkedHashMap<>();
    r.names().stream().filter(n -> r.argsType(n) != null).forEach(n -> typed.put(n, r.argsType(n)));
    // Upstream appends defaulted args for each of these.
    assertThat(typed)
        .containsAllEntriesOf(
            Map.of(
                "NodeAffinity", NodeAffinityArgs.class,
                "NodeResourcesFit", NodeResourcesFitArgs.class,
                "VolumeBinding", VolumeBindingArgs.class,
                "PodTopologySpread", PodTopologySpreadArgs.class,
                "InterPodAffinity", InterPodAffinityArgs.class,
                "NodeResourcesBalancedAllocation", NodeResourcesBalancedAllocationArgs.class,
                "DefaultPreemption", DefaultPreemptionArgs.class));
    // v1 has no args kinds for these; their v1.22 args are kept as written.
    assertThat(typed).doesNotContainKeys("NodeLabel", "ServiceAffinity");
  }

  @Test
  void everyPluginOfTheDefaultProfileThatTheExtenderRunsIsRegistered() {
    assertThat(InTreeRegistry.create().names())
        .containsAll(
            ProfileDefaults.PLUGINS.stream()
                .map(PluginRef::name)
                .filter(n -> !ProfileDefaults.NOT_RUN.contains(n))
                .toList());
  }
}

package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaimBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.ObjectStore;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.FrameworkServices;
import io.schedext.framework.runtime.Frameworks;
import io.schedext.profiles.InTreeRegistry;
import io.schedext.profiles.ProfileDefaults;
import io.schedext.testing.FixedSource;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.TestFrameworks;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The default profile of 1.34 enables DynamicResources, which the extender does not evaluate:
 * explain says so, loudly for a pod with resource claims, and neither verb pretends to have
 * allocated anything (nor rejects such a pod on that account).
 */
class ExplainNotEvaluatedTest {

  private final SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
  private final VerbHarness service = service();

  private VerbHarness service() {
    cache.addNode(
        MakeNode.node()
            .name("n1")
            .capacity(Map.of("cpu", "4", "memory", "8Gi", "pods", "10"))
            .obj());
    FrameworkServices services = TestFrameworks.services(new ObjectStore());
    var registry = InTreeRegistry.create();
    Framework fw =
        Framework.create(
            ProfileDefaults.profile(ProfileDefaults.NAME, registry.names()), registry, services);
    return new VerbHarness(
        cache,
        FixedSource.ready(),
        new Frameworks(Map.of(fw.profileName(), fw), fw.profileName()),
        services.parallelizer(),
        new SeenPods(10, Duration.ofMinutes(1), System::nanoTime),
        new ExtenderMetrics(new SimpleMeterRegistry()));
  }

  private static ExtenderArgs args(Pod pod) {
    return new ExtenderArgs(pod, null, List.of("n1"));
  }

  @Test
  void aPodWithoutResourceClaimsIsToldThatUpstreamSkipsItToo() {
    Explanation e =
        service.explain(null, args(MakePod.pod().name("p").uid("u").req(Map.of()).obj()));

    assertThat(e.notEvaluated())
        .containsExactly(
            new Explanation.NotEvaluated(
                "DynamicResources",
                false,
                "the pod has no resource claims, which upstream's plugin skips too"));
    assertThat(ExplanationReport.render(e)).doesNotContain("not evaluated");
  }

  @Test
  void aPodWithResourceClaimsIsToldThatTheyWereNotEvaluated() {
    Pod pod = MakePod.pod().name("p").uid("u").req(Map.of()).obj();
    pod.getSpec()
        .setResourceClaims(
            List.of(
                new PodResourceClaimBuilder()
                    .withName("gpu")
                    .withResourceClaimTemplateName("one-gpu")
                    .build()));

    Explanation e = service.explain(null, args(pod));
    ExtenderFilterResult r = service.filter(null, args(pod));

    assertThat(e.notEvaluated())
        .singleElement()
        .satisfies(n -> assertThat(n.affectsPod()).isTrue());
    assertThat(ExplanationReport.render(e))
        .contains(
            "\nnot evaluated: DynamicResources: the pod's resource claims need devices the"
                + " extender does not allocate;");
    assertThat(e.feasibleNodes()).as("nothing rejects it on that account").containsExactly("n1");
    assertThat(r.nodeNames()).containsExactly("n1");
  }
}

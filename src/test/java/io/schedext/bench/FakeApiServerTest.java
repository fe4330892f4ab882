package io.schedext.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.schedext.cache.SchedulerCache;
import io.schedext.cluster.EventThreads;
import io.schedext.cluster.KubernetesClients;
import io.schedext.cluster.KubernetesCluster;
import io.schedext.cluster.ObjectStore;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The burst benchmark's stand-in API server serves the service's own client (built from a
 * kubeconfig, as in production): every informer syncs, and pod events written to the watch reach
 * the cache in order.
 */
class FakeApiServerTest {

  @Test
  void theServicesInformersSyncAndPodEventsReachTheCache(@TempDir Path dir) throws Exception {
    Node node = MakeNode.node().name("n1").capacity(Map.of("cpu", "4", "pods", "110")).obj();
    Pod running =
        MakePod.pod().name("p1").namespace("ns").uid("u1").node("n1").req(Map.of("cpu", "1")).obj();
    running.getStatus().setPhase("Running");
    SchedulerCache cache = new SchedulerCache(Clock.systemUTC(), Duration.ZERO);
    try (FakeApiServer api = new FakeApiServer(List.<HasMetadata>of(node, running))) {
      Path kubeconfig = dir.resolve("kubeconfig");
      api.writeKubeconfig(kubeconfig);
      try (KubernetesClient client =
          KubernetesClients.create(kubeconfig.toString(), new EventThreads())) {
        KubernetesCluster source =
            new KubernetesCluster(
                client,
                cache,
                new ObjectStore(),
                Clock.systemUTC(),
                Duration.ofSeconds(30),
                Duration.ofSeconds(5));
        try {
          source.start();
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> source.isReady() && api.podWatches() > 0);
          assertThat(cache.snapshot().get("n1").requested().milliCpu()).isEqualTo(1000);

          Pod bigger =
              MakePod.pod()
                  .name("p1")
                  .namespace("ns")
                  .uid("u1")
                  .node("n1")
                  .req(Map.of("cpu", "3"))
                  .obj();
          bigger.getStatus().setPhase("Running");
          bigger.getMetadata().setResourceVersion("2");
          Pod added =
              MakePod.pod()
                  .name("p2")
                  .namespace("ns")
                  .uid("u2")
                  .node("n1")
                  .req(Map.of("cpu", "500m"))
                  .obj();
          added.getStatus().setPhase("Running");
          added.getMetadata().setResourceVersion("3");
          api.sendPodEvents(
              List.of(
                  FakeApiServer.podEvent("MODIFIED", bigger),
                  FakeApiServer.podEvent("ADDED", added)),
              0);

          await().atMost(Duration.ofSeconds(30)).until(() -> cache.getPod("u2") != null);
          assertThat(cache.snapshot().get("n1").requested().milliCpu()).isEqualTo(3500);
        } finally {
          source.close();
        }
      }
    }
  }
}

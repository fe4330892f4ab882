package io.schedext.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Builds the API client from an explicit kubeconfig path, or from the pod's service account when
 * none is given. A developer's {@code ~/.kube/config} is never picked up by accident.
 */
public final class KubernetesClients {

  private KubernetesClients() {}

  /**
   * A client for {@code kubeconfig} (a path), or in-cluster configuration when it is blank, on
   * {@code threads} (call {@link EventThreads#yieldToCalls()} once the informers have synced).
   */
  public static KubernetesClient create(String kubeconfig, EventThreads threads) {
    Config config;
    if (kubeconfig == null || kubeconfig.isBlank()) {
      System.setProperty(Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false");
      config = Config.autoConfigure(null);
      if (config.getMasterUrl() == null
          || config.getMasterUrl().contains("kubernetes.default.svc")
              && System.getenv("KUBERNETES_SERVICE_HOST") == null) {
        throw new ClusterSourceException(
            "extender.cluster.source=kubernetes without extender.cluster.kubeconfig "
                + "needs in-cluster configuration (KUBERNETES_SERVICE_HOST and a service account), which this process "
                + "does not have; set extender.cluster.kubeconfig=<path>");
      }
    } else {
      Path path = Path.of(kubeconfig);
      try {
        config =
            Config.fromKubeconfig(null, Files.readString(path), path.toAbsolutePath().toString());
      } catch (IOException e) {
        throw new ClusterSourceException(
            "extender.cluster.kubeconfig " + kubeconfig + ": cannot be read: " + e.getMessage(), e);
      }
    }
    // Watch events decoded in one pass, with half the garbage, on threads that yield the CPUs to
    // the scheduling calls: fabric8 decodes before any handler runs, so this work is not held back
    // by the event gate.
    return threads
        .apply(
            new KubernetesClientBuilder()
                .withConfig(config)
                .withKubernetesSerialization(new WatchEventSerialization()))
        .build();
  }

  /**
   * A client sharing {@code client}'s connections whose every request gives up after {@code
   * timeout} and is never retried: for the calls a request waits on. fabric8's default retries a
   * failed or 5xx call up to ten times with a backoff, in the background, long after its caller
   * stopped waiting (a Binding POST retried that way can land after the bind was answered).
   */
  static KubernetesClient bounded(KubernetesClient client, Duration timeout) {
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    return client
        .newClient(
            new RequestConfigBuilder()
                .withRequestTimeout(millis)
                .withRequestRetryBackoffLimit(0)
                .build())
        .adapt(KubernetesClient.class);
  }
}

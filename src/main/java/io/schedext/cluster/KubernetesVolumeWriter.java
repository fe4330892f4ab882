package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.VolumeWriter;
import java.time.Duration;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes PersistentVolumes and claims through the API server with a plain update (PUT with the
 * object's resource version, so a stale object is refused with 409 Conflict), each request bounded
 * by a timeout and not retried, as upstream's PreBind does with client-go. A refused write surfaces
 * the API server's own message. Thread-safe.
 */
final class KubernetesVolumeWriter implements VolumeWriter {

  private static final Logger log = LoggerFactory.getLogger(KubernetesVolumeWriter.class);

  private final KubernetesClient client;
  private final BiPredicate<String, String> pendingPod;

  /**
   * A writer over {@code client} giving up after {@code timeout} per request; {@code pendingPod}
   * answers from the informer whether a pod is known, before the API is asked.
   */
  KubernetesVolumeWriter(
      KubernetesClient client, Duration timeout, BiPredicate<String, String> pendingPod) {
    this.client = KubernetesClients.bounded(client, timeout);
    this.pendingPod = pendingPod;
  }

  @Override
  public PersistentVolume updatePersistentVolume(PersistentVolume pv) {
    try {
      return client.persistentVolumes().resource(pv).update();
    } catch (KubernetesClientException e) {
      throw failure(e);
    }
  }

  @Override
  public PersistentVolumeClaim updatePersistentVolumeClaim(PersistentVolumeClaim pvc) {
    try {
      return client
          .persistentVolumeClaims()
          .inNamespace(pvc.getMetadata().getNamespace())
          .resource(pvc)
          .update();
    } catch (KubernetesClientException e) {
      throw failure(e);
    }
  }

  /**
   * Known to the pod informer, or found by the API server; a failed lookup counts as existing
   * (upstream logs it).
   */
  @Override
  public boolean podExists(String namespace, String name) {
    if (pendingPod.test(namespace, name)) {
      return true;
    }
    try {
      return client.pods().inNamespace(namespace).withName(name).get() != null;
    } catch (KubernetesClientException e) {
      log.warn("Looking up pod {}/{} failed: {}", namespace, name, KubernetesCluster.why(e));
      return true;
    }
  }

  private static FrameworkException failure(KubernetesClientException e) {
    String message =
        e.getStatus() != null
                && e.getStatus().getMessage() != null
                && !e.getStatus().getMessage().isEmpty()
            ? e.getStatus().getMessage()
            : e.getMessage();
    return new FrameworkException(message, e);
  }
}

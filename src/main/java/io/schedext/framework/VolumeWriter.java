package io.schedext.framework;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;

/**
 * The API writes VolumeBinding's PreBind makes (upstream's {@code kubeClient} there): updates of
 * PersistentVolumes and claims, plus the one pod lookup its wait loop needs to stop when the pod is
 * gone. Implementations are thread-safe and bound every call by a timeout.
 */
public interface VolumeWriter {

  /** A writer for frameworks without a cluster: every write fails, every pod exists. */
  VolumeWriter NONE =
      new VolumeWriter() {
        @Override
        public PersistentVolume updatePersistentVolume(PersistentVolume pv) {
          throw new FrameworkException("volume writes are not available here");
        }

        @Override
        public PersistentVolumeClaim updatePersistentVolumeClaim(PersistentVolumeClaim pvc) {
          throw new FrameworkException("volume writes are not available here");
        }

        @Override
        public boolean podExists(String namespace, String name) {
          return true;
        }
      };

  /**
   * Replaces {@code pv} (optimistic concurrency on its resource version) and returns the stored
   * object with its new resource version. Throws {@link FrameworkException} carrying the API
   * server's message (e.g. the conflict text) when the write is refused, fails or times out.
   */
  PersistentVolume updatePersistentVolume(PersistentVolume pv);

  /** Replaces {@code pvc} like {@link #updatePersistentVolume}. */
  PersistentVolumeClaim updatePersistentVolumeClaim(PersistentVolumeClaim pvc);

  /**
   * False only when the pod {@code namespace/name} is known to be gone (upstream's pod lister
   * answering NotFound); lookup failures count as existing.
   */
  boolean podExists(String namespace, String name);
}

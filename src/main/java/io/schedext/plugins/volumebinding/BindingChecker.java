package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PodInfo;
import io.schedext.framework.VolumeWriter;
import io.schedext.kube.NodeSelectorTerms;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Upstream's {@code checkBindings}: one look, on the informer ("api") versions in the assume
 * caches, at whether the PV controller has finished what PreBind started, or has undone it. Answers
 * true when every claim is fully bound, false to keep waiting (not bound yet, or the informer has
 * not caught up with our own write), and throws {@link FrameworkException} with upstream's text
 * when binding must be retried: node or pod gone, a volume's claim reference dropped, a claim's
 * selected node removed or changed, a volume's node affinity not matching the node. Thread-safe.
 */
final class BindingChecker {

  private final VolumeAssumeCaches caches;
  private final VolumeWriter writer;

  BindingChecker(VolumeAssumeCaches caches, VolumeWriter writer) {
    this.caches = caches;
    this.writer = writer;
  }

  /**
   * Checks the static {@code bindings} and {@code claimsToProvision} (as written to the API) of
   * {@code pod} on {@code nodeName}, whose labels {@code nodeLabels} gives (null when the node is
   * unknown).
   */
  boolean check(
      PodInfo pod,
      String nodeName,
      List<BindingInfo> bindings,
      List<PersistentVolumeClaim> claimsToProvision,
      Function<String, Map<String, String>> nodeLabels) {
    Map<String, String> labels = nodeLabels.apply(nodeName);
    if (labels == null) {
      throw new FrameworkException(
          "failed to get node \"" + nodeName + "\": node \"" + nodeName + "\" not found");
    }
    if (!writer.podExists(pod.namespace(), pod.name())) {
      throw new FrameworkException(
          "pod does not exist any more: pod \"" + pod.name() + "\" not found");
    }
    for (BindingInfo b : bindings) {
      PersistentVolume pv;
      PersistentVolumeClaim pvc;
      try {
        pv = caches.pvs().getApiObject(b.pv().getMetadata().getName());
        pvc = caches.pvcs().getApiObject(AssumeCache.keyOf(b.pvc()));
      } catch (AssumeCacheException e) {
        throw new FrameworkException("failed to check binding: " + e.getMessage());
      }
      if (compareVersions(b.pv(), pv) > 0) {
        return false;
      }
      checkNodeAffinity(pv, nodeName, labels);
      ObjectReference ref = pv.getSpec() == null ? null : pv.getSpec().getClaimRef();
      if (ref == null || ref.getUid() == null || ref.getUid().isEmpty()) {
        throw new FrameworkException(
            "ClaimRef got reset for pv \"" + pv.getMetadata().getName() + "\"");
      }
      if (!ClaimClassifier.isFullyBound(pvc)) {
        return false;
      }
    }
    for (PersistentVolumeClaim claim : claimsToProvision) {
      PersistentVolumeClaim pvc;
      try {
        pvc = caches.pvcs().getApiObject(AssumeCache.keyOf(claim));
      } catch (AssumeCacheException e) {
        throw new FrameworkException("failed to check provisioning pvc: " + e.getMessage());
      }
      if (compareVersions(claim, pvc) > 0) {
        return false;
      }
      String name = pvc.getMetadata().getName();
      // Go tells a nil annotation map from an empty one; after a JSON round trip through the API
      // both are nil.
      Map<String, String> ann = pvc.getMetadata().getAnnotations();
      if (ann == null || ann.isEmpty()) {
        throw new FrameworkException("selectedNode annotation reset for PVC \"" + name + "\"");
      }
      if (!nodeName.equals(ann.getOrDefault(ClaimRequest.ANN_SELECTED_NODE, ""))) {
        throw new FrameworkException("provisioning failed for PVC \"" + name + "\"");
      }
      String volumeName = ClaimClassifier.volumeName(pvc);
      if (!volumeName.isEmpty()) {
        PersistentVolume pv;
        try {
          pv = caches.pvs().getApiObject(volumeName);
        } catch (AssumeCacheException e) {
          if (e.isNotFound()) {
            return false;
          }
          throw new FrameworkException(
              "failed to get pv \"" + volumeName + "\" from cache: " + e.getMessage());
        }
        checkNodeAffinity(pv, nodeName, labels);
      }
      if (!ClaimClassifier.isFullyBound(pvc)) {
        return false;
      }
    }
    return true;
  }

  private static void checkNodeAffinity(
      PersistentVolume pv, String nodeName, Map<String, String> labels) {
    String problem = nodeAffinityProblem(pv, labels);
    if (problem != null) {
      throw new FrameworkException(
          "pv \""
              + pv.getMetadata().getName()
              + "\" node affinity doesn't match node \""
              + nodeName
              + "\": "
              + problem);
    }
  }

  /**
   * Why {@code pv}'s required node affinity rejects a node with {@code labels}, as
   * component-helpers' {@code CheckNodeAffinity} (a node built from the labels alone): null when it
   * admits it, the parse errors of the terms when none matched and some are malformed, else {@code
   * no matching NodeSelectorTerms}.
   */
  static String nodeAffinityProblem(PersistentVolume pv, Map<String, String> labels) {
    if (pv.getSpec() == null
        || pv.getSpec().getNodeAffinity() == null
        || pv.getSpec().getNodeAffinity().getRequired() == null) {
      return null;
    }
    NodeSelectorTerms terms =
        NodeSelectorTerms.compile(pv.getSpec().getNodeAffinity().getRequired());
    if (terms.matches("", labels)) {
      return null;
    }
    List<String> errors = terms.parseErrors().stream().distinct().toList();
    if (errors.isEmpty()) {
      return "no matching NodeSelectorTerms";
    }
    return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
  }

  /** The apiserver's resource version order: -1, 0 or 1; "" counts as 0. */
  static int compareVersions(HasMetadata lhs, HasMetadata rhs) {
    return Long.compareUnsigned(version(lhs), version(rhs));
  }

  private static long version(HasMetadata o) {
    String rv = o.getMetadata().getResourceVersion();
    if (rv == null || rv.isEmpty()) {
      return 0;
    }
    try {
      return Long.parseUnsignedLong(rv);
    } catch (NumberFormatException e) {
      throw new FrameworkException(
          "invalid resource version \"" + rv + "\" of " + AssumeCache.keyOf(o));
    }
  }
}

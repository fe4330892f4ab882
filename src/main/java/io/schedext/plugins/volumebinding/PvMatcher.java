package io.schedext.plugins.volumebinding;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.schedext.framework.FrameworkException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Matches unbound claims to existing volumes on one node, as upstream's {@code findMatchingVolumes}
 * and component-helpers' {@code FindMatchingVolume} on the scheduler path: claims in increasing
 * size order each take the smallest fitting volume not already chosen, a volume pre-bound to the
 * claim wins at once. Stateless and thread-safe.
 */
public final class PvMatcher {

  private static final String AVAILABLE = "Available";
  private static final Comparator<ClaimRequest> BY_REQUEST =
      Comparator.comparing(ClaimRequest::request);

  private PvMatcher() {}

  /**
   * The outcome for several claims.
   *
   * @param allMatched true when every claim found a volume
   * @param bindings the claims that found one, with it
   * @param unmatched the claims left for dynamic provisioning
   */
  public record Matches(
      boolean allMatched, List<BindingInfo> bindings, List<ClaimRequest> unmatched) {}

  /**
   * Matches {@code claims} against the volumes of their classes for a node with {@code nodeLabels}.
   * Throws {@link FrameworkException} when a claim's selector is malformed.
   */
  public static Matches findMatchingVolumes(
      List<ClaimRequest> claims,
      Map<String, List<CandidateVolume>> volumesByClass,
      Map<String, String> nodeLabels) {
    List<ClaimRequest> sorted = new ArrayList<>(claims);
    // Upstream sorts with sort.Sort (unstable in theory, insertion sort for the few claims a pod
    // has); stable here.
    sorted.sort(BY_REQUEST);
    Set<String> chosen = new HashSet<>();
    List<BindingInfo> bindings = new ArrayList<>();
    List<ClaimRequest> unmatched = new ArrayList<>();
    for (ClaimRequest claim : sorted) {
      List<CandidateVolume> volumes = volumesByClass.getOrDefault(claim.className(), List.of());
      CandidateVolume pv = findMatchingVolume(claim, volumes, nodeLabels, chosen);
      if (pv == null) {
        unmatched.add(claim);
        continue;
      }
      chosen.add(pv.name());
      bindings.add(new BindingInfo(claim.pvc(), pv.pv()));
    }
    return new Matches(unmatched.isEmpty(), bindings, unmatched);
  }

  /**
   * The volume for {@code claim} on a node with {@code nodeLabels}, or null: a volume pre-bound to
   * the claim if it fits (null if it does not fit the node), else the smallest Available volume of
   * the claim's class that is large enough, of the same volume mode and attributes class, not being
   * deleted, matched by the claim's selector, fitting the node and offering the claim's access
   * modes. Volumes named in {@code excluded} are ignored.
   */
  public static CandidateVolume findMatchingVolume(
      ClaimRequest claim,
      List<CandidateVolume> volumes,
      Map<String, String> nodeLabels,
      Set<String> excluded) {
    if (claim.selectorError() != null) {
      throw new FrameworkException(
          "error creating internal label selector for claim: "
              + claim.key()
              + ": "
              + claim.selectorError());
    }
    CandidateVolume smallest = null;
    for (CandidateVolume v : volumes) {
      if (excluded.contains(v.name())) {
        continue;
      }
      boolean boundToClaim = isBoundToClaim(v.claimRef(), claim);
      if (v.claimRef() != null && !boundToClaim) {
        continue;
      }
      if (v.capacity().compareTo(claim.request()) < 0) {
        continue;
      }
      if (!v.volumeMode().equals(claim.volumeMode())) {
        continue;
      }
      if (!v.attributesClass().equals(claim.attributesClass())) {
        continue;
      }
      if (v.deleting()) {
        continue;
      }
      boolean fitsNode = v.fitsNode(nodeLabels);
      if (boundToClaim) {
        return fitsNode ? v : null;
      }
      if (!AVAILABLE.equals(v.phase())) {
        continue;
      }
      if (claim.selector() != null && !claim.selector().matches(v.labels())) {
        continue;
      }
      if (!v.className().equals(claim.className()) || !fitsNode) {
        continue;
      }
      if (!v.accessModes().containsAll(claim.accessModes())) {
        continue;
      }
      if (smallest == null || smallest.capacity().compareTo(v.capacity()) > 0) {
        smallest = v;
      }
    }
    return smallest;
  }

  /** True when {@code ref} names the claim (and its uid, when the reference carries one). */
  public static boolean isBoundToClaim(ObjectReference ref, ClaimRequest claim) {
    if (ref == null) {
      return false;
    }
    if (!Objects.equals(ref.getName(), claim.name())
        || !Objects.equals(nullToEmpty(ref.getNamespace()), claim.namespace())) {
      return false;
    }
    String uid = nullToEmpty(ref.getUid());
    return uid.isEmpty() || uid.equals(claim.uid());
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}

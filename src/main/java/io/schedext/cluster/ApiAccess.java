package io.schedext.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the kubernetes cluster source asks of the API server, as RBAC would name it: the kinds
 * {@link KubernetesCluster} lists and watches with informers, and what it and {@link
 * KubernetesBinder} read and write one object at a time. The deployment's ClusterRole grants
 * exactly this (ManifestsTest compares both ways), and ApiAccessTest checks it against the requests
 * the code really sends, so a new informer or write shows up as a failing test instead of a 403 in
 * a cluster.
 */
public final class ApiAccess {

  private ApiAccess() {}

  /**
   * Verbs on one resource.
   *
   * @param group the API group ({@code ""} for core)
   * @param resource the plural resource name, with {@code /subresource} for a subresource
   * @param verbs the RBAC verbs
   */
  public record Grant(String group, String resource, Set<String> verbs) {

    /** A grant with an immutable copy of its verbs. */
    public Grant {
      verbs = Set.copyOf(verbs);
    }

    /**
     * The grant as {@code group/resource:verb} triples, one per verb (core group written as {@code
     * core}).
     */
    public List<String> triples() {
      List<String> out = new ArrayList<>();
      for (String v : new TreeSet<>(verbs)) {
        out.add((group.isEmpty() ? "core" : group) + "/" + resource + ":" + v);
      }
      return out;
    }
  }

  private static final Set<String> LIST_WATCH = Set.of("list", "watch");

  /** The kinds the informers list and watch (also the lists of {@code /debug/cache/compare}). */
  public static final List<Grant> WATCHED =
      List.of(
          new Grant("", "nodes", LIST_WATCH),
          new Grant("", "pods", LIST_WATCH),
          new Grant("", "services", LIST_WATCH),
          new Grant("", "namespaces", LIST_WATCH),
          new Grant("", "persistentvolumes", LIST_WATCH),
          new Grant("", "persistentvolumeclaims", LIST_WATCH),
          new Grant("", "replicationcontrollers", LIST_WATCH),
          new Grant("storage.k8s.io", "storageclasses", LIST_WATCH),
          new Grant("storage.k8s.io", "csinodes", LIST_WATCH),
          new Grant("storage.k8s.io", "csidrivers", LIST_WATCH),
          new Grant("storage.k8s.io", "csistoragecapacities", LIST_WATCH),
          new Grant("storage.k8s.io", "volumeattachments", LIST_WATCH),
          new Grant("policy", "poddisruptionbudgets", LIST_WATCH),
          new Grant("apps", "replicasets", LIST_WATCH),
          new Grant("apps", "statefulsets", LIST_WATCH),
          new Grant("resource.k8s.io", "resourceclaims", LIST_WATCH),
          new Grant("resource.k8s.io", "deviceclasses", LIST_WATCH),
          new Grant("resource.k8s.io", "resourceslices", LIST_WATCH));

  /**
   * The single-object reads and the writes: the Binding subresource (bind), a pod GET (bind of a
   * pod the informer has not seen yet, and the 409 check), the PersistentVolume /
   * PersistentVolumeClaim updates of volume binding's PreBind, and dynamic resources' PreBind and
   * Unreserve on ResourceClaims (a fresh read after a conflict, the finalizer, the allocation and
   * reservation in the status, a reservation taken back by a patch).
   */
  public static final List<Grant> WRITTEN =
      List.of(
          new Grant("", "pods/binding", Set.of("create")),
          new Grant("", "pods", Set.of("get")),
          new Grant("", "persistentvolumes", Set.of("update")),
          new Grant("", "persistentvolumeclaims", Set.of("update")),
          new Grant("resource.k8s.io", "resourceclaims", Set.of("get", "update")),
          new Grant("resource.k8s.io", "resourceclaims/status", Set.of("update", "patch")));

  /**
   * The non-resource URLs it reads: {@code /version}, {@link ApiProbe}'s question whether the API
   * server answers at all. Every authenticated client may read it (the built-in ClusterRole {@code
   * system:public-info-viewer}), so the deployment's ClusterRole does not grant it.
   */
  public static final List<String> PUBLIC_READS = List.of("/version");

  /** Every grant, watched and written, as sorted {@code group/resource:verb} triples. */
  public static Set<String> triples() {
    Set<String> out = new TreeSet<>();
    WATCHED.forEach(g -> out.addAll(g.triples()));
    WRITTEN.forEach(g -> out.addAll(g.triples()));
    return out;
  }
}

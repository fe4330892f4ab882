package io.schedext.cache;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Node;
import io.schedext.framework.ImageStateSummary;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler cache, as upstream's {@code internal/cache}: per-node aggregation of the pods
 * assigned or assumed there, the pod life cycle keyed by UID (Initial → Assumed → Added → Deleted,
 * with Forget and Expire), ghost entries for pods whose node is unknown, the NodeTree order, and
 * immutable snapshots refreshed incrementally by generation.
 *
 * <p>Thread-safe: every mutation takes one lock for a few microseconds; {@link #snapshot()} returns
 * without locking when nothing changed. Where upstream exits the process on a corrupted cache (a
 * pod seen on two nodes), this cache repairs the entry, logs an error and counts it in {@link
 * #corruptions()}.
 */
public final class SchedulerCache {

  private static final Logger log = LoggerFactory.getLogger(SchedulerCache.class);

  private static final class PodState {
    PodInfo pod;
    Instant deadline;
    boolean bindingFinished;

    PodState(PodInfo pod) {
      this.pod = pod;
    }
  }

  private static final class Item {
    final NodeInfo info;
    Item prev;
    Item next;
    // The image summaries last given to a snapshot copy of this node, with the node object and the
    // image-state
    // version they were computed for: a pod change leaves both alone, so the next copy reuses them.
    Map<String, ImageStateSummary> summaries;
    Node summariesOf;
    long summariesVersion;

    Item(NodeInfo info) {
      this.info = info;
    }
  }

  private static final class ImageState {
    final long size;
    final Set<String> nodes = new HashSet<>();

    ImageState(long size) {
      this.size = size;
    }
  }

  private final Clock clock;
  private final Duration ttl;
  // Fair: a request building a snapshot during a burst of watch events waits for one update, not
  // for the burst.
  private final ReentrantLock lock = new ReentrantLock(true);

  /** Node changes since the last published snapshot (written under the lock). */
  private volatile int unpublishedChanges;

  private final Map<String, PodState> podStates = new HashMap<>();
  private final Set<String> assumedPods = new HashSet<>();
  private final Map<String, Item> nodes = new HashMap<>();
  private Item head;
  private final NodeTree nodeTree = new NodeTree();
  private final Map<String, ImageState> imageStates = new HashMap<>();
  // Advanced whenever imageStates changes (a node's images were added or removed).
  private long imageStatesVersion;
  private volatile Snapshot published = Snapshot.empty();
  private long treeVersion;
  private long publishedTreeVersion;
  private volatile long headGeneration;
  private final AtomicLong corruptions = new AtomicLong();
  private final AtomicLong expired = new AtomicLong();

  /**
   * A cache whose assumed pods expire {@code ttl} after their binding finished (zero or negative:
   * never), timed by {@code clock}.
   */
  public SchedulerCache(Clock clock, Duration ttl) {
    this.clock = clock;
    this.ttl = ttl == null || ttl.isNegative() ? Duration.ZERO : ttl;
  }

  // ------------------------------------------------------------------------------------------------ pod life cycle

  /**
   * Adds a pod the scheduler has decided to place on {@code pod.nodeName()} before the API confirms
   * it.
   */
  public void assumePod(PodInfo pod) {
    String key = key(pod);
    lock.lock();
    try {
      if (podStates.containsKey(key)) {
        throw new CacheException(
            "pod " + key + "(" + pod.key() + ") is in the cache, so can't be assumed");
      }
      addPodLocked(pod, true);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Marks the assumed pod's binding as finished; from now on its expiry deadline runs (when a TTL
   * is set).
   */
  public void finishBinding(PodInfo pod) {
    String key = key(pod);
    lock.lock();
    try {
      PodState ps = podStates.get(key);
      if (ps != null && assumedPods.contains(key)) {
        ps.deadline = ttl.isZero() ? null : clock.instant().plus(ttl);
        ps.bindingFinished = true;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes an assumed pod (its binding failed). A pod the cache no longer holds is ignored, as
   * current upstream does; an added pod, or one assumed on another node, is a {@link
   * CacheException}.
   */
  public void forgetPod(PodInfo pod) {
    String key = key(pod);
    lock.lock();
    try {
      PodState ps = podStates.get(key);
      if (ps == null) {
        return;
      }
      if (!ps.pod.nodeName().equals(pod.nodeName())) {
        throw new CacheException(
            "pod "
                + key
                + "("
                + pod.key()
                + ") was assumed on "
                + pod.nodeName()
                + " but assigned to "
                + ps.pod.nodeName());
      }
      if (!assumedPods.contains(key)) {
        throw new CacheException(
            "pod "
                + key
                + "("
                + pod.key()
                + ") is not assumed, so it cannot be removed or forgotten");
      }
      removePodLocked(ps.pod);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds an assigned pod seen by the watch: confirms it when assumed (moving it if it landed
   * elsewhere), adds it back when it had expired or was never assumed. Throws {@link
   * CacheException} when it is already added.
   */
  public void addPod(PodInfo pod) {
    String key = key(pod);
    lock.lock();
    try {
      PodState ps = podStates.get(key);
      if (ps != null && !assumedPods.contains(key)) {
        throw new CacheException("pod " + key + "(" + pod.key() + ") was already in added state");
      }
      addUnderLock(ps, pod);
    } finally {
      lock.unlock();
    }
    publishIfBehind();
  }

  /**
   * {@link #addPod} once it is known that the pod is assumed ({@code ps} its state) or unknown
   * ({@code ps} null).
   */
  private void addUnderLock(PodState ps, PodInfo pod) {
    if (ps != null) {
      if (!ps.pod.nodeName().equals(pod.nodeName())) {
        log.info(
            "Pod {} was added to node {}, not to {} where it was assumed",
            pod.key(),
            pod.nodeName(),
            ps.pod.nodeName());
      }
      updatePodLocked(ps.pod, pod);
    } else {
      addPodLocked(pod, false);
    }
  }

  /**
   * What a watch event for an assigned pod means, in one step under one lock: an assumed or unknown
   * pod is added ({@link #addPod}: confirmed, or added back), an added pod replaced by this version
   * ({@link #updatePod}).
   */
  public void addOrUpdatePod(PodInfo pod) {
    String key = key(pod);
    lock.lock();
    try {
      PodState ps = podStates.get(key);
      if (ps == null || assumedPods.contains(key)) {
        addUnderLock(ps, pod);
      } else {
        updateUnderLock(ps, pod);
      }
    } finally {
      lock.unlock();
    }
    publishIfBehind();
  }

  /** Replaces an added pod with its newer version. Assumed or unknown pods are an error. */
  public void updatePod(PodInfo oldPod, PodInfo newPod) {
    String key = key(oldPod);
    lock.lock();
    try {
      PodState ps = podStates.get(key);
      if (ps == null) {
        throw new CacheException(
            "pod "
                + key
                + "("
                + oldPod.key()
                + ") is not added to scheduler cache, so cannot be updated");
      }
      if (assumedPods.contains(key)) {
        throw new CacheException(
            "assumed pod " + key + "(" + oldPod.key() + ") should not be updated");
      }
      updateUnderLock(ps, newPod);
    } finally {
      lock.unlock();
    }
    publishIfBehind();
  }

  /**
   * {@link #updatePod} once it is known that the pod is added ({@code ps} its state) and not
   * assumed.
   */
  private void updateUnderLock(PodState ps, PodInfo newPod) {
    if (!ps.pod.nodeName().equals(newPod.nodeName())) {
      corrupted(
          "pod "
              + ps.pod.key()
              + " updated on node "
              + newPod.nodeName()
              + " but was added to "
              + ps.pod.nodeName());
    }
    updatePodLocked(ps.pod, newPod);
  }

  /** Removes a deleted pod (or one that turned terminal). Unknown pods are an error. */
  public void removePod(PodInfo pod) {
    String key = key(pod);
    lock.lock();
    try {
      PodState ps = podStates.get(key);
      if (ps == null) {
        throw new CacheException(
            "pod "
                + key
                + "("
                + pod.key()
                + ") is not found in scheduler cache, so cannot be removed from it");
      }
      if (!ps.pod.nodeName().equals(pod.nodeName()) && !pod.nodeName().isEmpty()) {
        corrupted(
            "pod "
                + pod.key()
                + " removed from node "
                + pod.nodeName()
                + " but was added to "
                + ps.pod.nodeName());
      }
      removePodLocked(ps.pod);
    } finally {
      lock.unlock();
    }
    publishIfBehind();
  }

  /** True when the pod with this UID is assumed (and not expired). */
  public boolean isAssumedPod(String uid) {
    return withLock(() -> assumedPods.contains(uid));
  }

  /** The cached pod with this UID (assumed or added), or null. */
  public PodInfo getPod(String uid) {
    lock.lock();
    try {
      PodState ps = podStates.get(uid);
      return ps == null ? null : ps.pod;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes assumed pods whose binding finished longer than the TTL ago and that no watch event
   * confirmed. Returns the expired pods. Run periodically; a zero TTL never expires anything.
   */
  public List<PodInfo> cleanupExpiredAssumedPods() {
    Instant now = clock.instant();
    List<PodInfo> out = new ArrayList<>();
    lock.lock();
    try {
      for (String key : new ArrayList<>(assumedPods)) {
        PodState ps = podStates.get(key);
        if (ps == null) {
          corrupted("pod " + key + " is assumed but has no state");
          assumedPods.remove(key);
          continue;
        }
        if (!ps.bindingFinished || ttl.isZero() || ps.deadline == null) {
          continue;
        }
        if (now.isAfter(ps.deadline)) {
          log.info(
              "Assumed pod {} expired: no watch event confirmed it within {}", ps.pod.key(), ttl);
          removePodLocked(ps.pod);
          expired.incrementAndGet();
          out.add(ps.pod);
        }
      }
    } finally {
      lock.unlock();
    }
    return out;
  }

  private void addPodLocked(PodInfo pod, boolean assume) {
    Item n = nodes.get(pod.nodeName());
    if (n == null) {
      n = new Item(new NodeInfo());
      nodes.put(pod.nodeName(), n);
    }
    n.info.addPod(pod);
    moveToHead(pod.nodeName());
    podStates.put(pod.uid(), new PodState(pod));
    if (assume) {
      assumedPods.add(pod.uid());
    }
  }

  private void updatePodLocked(PodInfo oldPod, PodInfo newPod) {
    removePodLocked(oldPod);
    addPodLocked(newPod, false);
  }

  private void removePodLocked(PodInfo pod) {
    Item n = nodes.get(pod.nodeName());
    if (n == null) {
      log.error("Node {} not found when trying to remove pod {}", pod.nodeName(), pod.key());
    } else {
      if (n.info.removePod(pod) == null) {
        log.error("Pod {} not found on node {} in the cache", pod.key(), pod.nodeName());
      }
      if (n.info.pods().isEmpty() && n.info.node() == null) {
        removeItem(pod.nodeName());
      } else {
        moveToHead(pod.nodeName());
      }
    }
    podStates.remove(pod.uid());
    assumedPods.remove(pod.uid());
  }

  private void corrupted(String what) {
    corruptions.incrementAndGet();
    log.error(
        "Scheduler cache is inconsistent ({}); the entry was repaired from the latest event", what);
  }

  private static String key(PodInfo pod) {
    if (pod.uid().isEmpty()) {
      throw new CacheException("cannot get cache key for pod " + pod.key() + " with empty UID");
    }
    return pod.uid();
  }

  // -------------------------------------------------------------------------------------------------------- nodes

  /** Adds a node, or replaces it when known (also when only its pods were known so far). */
  public void addNode(Node node) {
    updateNode(null, node);
  }

  /**
   * Replaces a node with its newer version (adds it when unknown). The cached version, not {@code
   * oldNode}, is what gets replaced, so a missed event cannot leave stale state behind.
   */
  public void updateNode(Node oldNode, Node newNode) {
    lock.lock();
    try {
      String name = newNode.getMetadata().getName();
      Item n = nodes.get(name);
      Node previous = null;
      if (n == null) {
        n = new Item(new NodeInfo());
        nodes.put(name, n);
      } else {
        previous = n.info.node();
      }
      // Most node updates are status heartbeats with the same images: the cluster's image state
      // then stays as it is
      // (and so do the other nodes' image summaries).
      boolean sameImages = previous != null && Objects.equals(images(previous), images(newNode));
      if (previous != null && !sameImages) {
        removeImageStates(previous);
      }
      if (previous == null) {
        nodeTree.addNode(newNode);
        treeVersion++;
      } else if (nodeTree.updateNode(previous, newNode)) {
        treeVersion++;
      }
      if (!sameImages) {
        addImageStates(newNode);
      }
      n.info.setNode(newNode);
      // After setNode: moving to the head publishes the entry's new generation to the lock-free
      // snapshot check.
      moveToHead(name);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes a node. Its entry stays as a node-less ghost while pods are still accounted there
   * (their delete events come on another watch); throws {@link CacheException} when the node is
   * unknown or was removed already.
   */
  public void removeNode(Node node) {
    lock.lock();
    try {
      String name = node.getMetadata().getName();
      Item n = nodes.get(name);
      if (n == null) {
        throw new CacheException("node " + name + " is not found");
      }
      Node cached = n.info.node();
      if (cached == null) {
        // A ghost: the node was removed already and only its pods remain (upstream's node tree
        // reports it).
        throw new CacheException(
            "node \""
                + name
                + "\" in group \""
                + goQuoted(NodeTree.zoneKey(node))
                + "\" was not found");
      }
      n.info.removeNode();
      if (n.info.pods().isEmpty()) {
        removeItem(name);
      } else {
        moveToHead(name);
      }
      treeVersion++;
      nodeTree.removeNode(cached);
      removeImageStates(cached);
    } finally {
      lock.unlock();
    }
  }

  private static String goQuoted(String s) {
    return s.replace("\u0000", "\\x00");
  }

  private static List<ContainerImage> images(Node node) {
    return node.getStatus() == null ? null : node.getStatus().getImages();
  }

  private void addImageStates(Node node) {
    String name = node.getMetadata().getName();
    if (node.getStatus() == null || node.getStatus().getImages() == null) {
      return;
    }
    for (ContainerImage image : node.getStatus().getImages()) {
      if (image.getNames() == null) {
        continue;
      }
      long size = image.getSizeBytes() == null ? 0 : image.getSizeBytes();
      imageStatesVersion++;
      for (String imageName : image.getNames()) {
        imageStates.computeIfAbsent(imageName, k -> new ImageState(size)).nodes.add(name);
      }
    }
  }

  private void removeImageStates(Node node) {
    String name = node.getMetadata().getName();
    if (node.getStatus() == null || node.getStatus().getImages() == null) {
      return;
    }
    for (ContainerImage image : node.getStatus().getImages()) {
      if (image.getNames() == null) {
        continue;
      }
      imageStatesVersion++;
      for (String imageName : image.getNames()) {
        ImageState s = imageStates.get(imageName);
        if (s != null) {
          s.nodes.remove(name);
          if (s.nodes.isEmpty()) {
            imageStates.remove(imageName);
          }
        }
      }
    }
  }

  /**
   * The image summaries for a snapshot copy of {@code item}'s node: those of its previous copy
   * while neither the node object nor any node's images changed since (the same values, computed
   * once), else computed afresh.
   */
  private Map<String, ImageStateSummary> imageSummaries(Item item) {
    Node node = item.info.node();
    if (item.summaries == null
        || item.summariesOf != node
        || item.summariesVersion != imageStatesVersion) {
      item.summaries = imageSummaries(node);
      item.summariesOf = node;
      item.summariesVersion = imageStatesVersion;
    }
    return item.summaries;
  }

  private Map<String, ImageStateSummary> imageSummaries(Node node) {
    if (node.getStatus() == null
        || node.getStatus().getImages() == null
        || node.getStatus().getImages().isEmpty()) {
      return Map.of();
    }
    Map<String, ImageStateSummary> out = new HashMap<>();
    for (ContainerImage image : node.getStatus().getImages()) {
      if (image.getNames() == null) {
        continue;
      }
      for (String imageName : image.getNames()) {
        ImageState s = imageName == null ? null : imageStates.get(imageName);
        if (s != null) {
          out.putIfAbsent(imageName.intern(), new ImageStateSummary(s.size, s.nodes.size()));
        }
      }
    }
    // Shared by every snapshot copy of the node until it changes, so it must not change either.
    // Read once per node
    // of every prioritize: a compact immutable map with interned keys (ImageLocality interns the
    // pod's names too), so
    // a lookup is a probe into one array ending on a reference comparison.
    return Map.copyOf(out);
  }

  private void moveToHead(String name) {
    Item n = nodes.get(name);
    if (n == null) {
      return;
    }
    if (n != head) {
      if (n.prev != null) {
        n.prev.next = n.next;
      }
      if (n.next != null) {
        n.next.prev = n.prev;
      }
      if (head != null) {
        head.prev = n;
      }
      n.next = head;
      n.prev = null;
      head = n;
    }
    headGeneration = head.info.generation();
    unpublishedChanges++;
  }

  private void removeItem(String name) {
    Item n = nodes.remove(name);
    if (n == null) {
      return;
    }
    if (n.prev != null) {
      n.prev.next = n.next;
    }
    if (n.next != null) {
      n.next.prev = n.prev;
    }
    if (n == head) {
      head = n.next;
    }
    // A removal changes the node set even though no remaining node's generation moved.
    headGeneration = NodeInfo.nextGeneration();
    unpublishedChanges++;
  }

  /**
   * The watch handlers publish a snapshot themselves every {@value #PUBLISH_EVERY} node changes, so
   * a request after a burst of events copies at most that many changed node infos on its own path
   * instead of the whole burst's.
   */
  static final int PUBLISH_EVERY = 64;

  /** The last published snapshot, without refreshing it; for tests. */
  Snapshot lastPublished() {
    return published;
  }

  private void publishIfBehind() {
    if (unpublishedChanges >= PUBLISH_EVERY) {
      snapshot();
    }
  }

  // ----------------------------------------------------------------------------------------------------- snapshot

  /**
   * The current immutable snapshot. Copies only the node infos changed since the last snapshot;
   * rebuilds the node order only when nodes were added or removed. Lock-free when nothing changed.
   */
  public Snapshot snapshot() {
    Snapshot current = published;
    if (headGeneration <= current.generation()) {
      return current;
    }
    lock.lock();
    try {
      current = published;
      long target = headGeneration;
      if (target <= current.generation()) {
        return current;
      }
      Map<String, NodeInfo> changed = new LinkedHashMap<>();
      boolean structural = false;
      for (Item n = head; n != null; n = n.next) {
        if (n.info.generation() <= current.generation()) {
          break;
        }
        Node node = n.info.node();
        if (node != null) {
          NodeInfo copy = n.info.snapshotCopy();
          copy.setImageStates(imageSummaries(n));
          changed.put(copy.name(), copy);
          if (!current.indexByName().containsKey(copy.name())) {
            structural = true;
          }
        }
      }
      if (treeVersion != publishedTreeVersion || current.size() != nodeTree.numNodes()) {
        structural = true;
      }
      Snapshot next;
      if (structural) {
        List<String> order = nodeTree.list();
        NodeInfo[] arr = new NodeInfo[order.size()];
        Map<String, Integer> idx = new HashMap<>(order.size() * 2);
        int k = 0;
        for (String name : order) {
          NodeInfo ni = changed.get(name);
          if (ni == null) {
            ni = current.get(name);
          }
          if (ni == null) {
            Item it = nodes.get(name);
            if (it == null || it.info.node() == null) {
              log.error("Node {} is in the node tree but not in the cache; skipping it", name);
              continue;
            }
            ni = it.info.snapshotCopy();
            ni.setImageStates(imageSummaries(it));
          }
          arr[k] = ni;
          idx.put(ni.name(), k);
          k++;
        }
        if (k != arr.length) {
          arr = Arrays.copyOf(arr, k);
        }
        next = new Snapshot(arr, idx, Math.max(target, current.generation()));
      } else {
        NodeInfo[] arr = current.nodesArray().clone();
        // The generations array follows along when the predecessor has one: a copy plus the changed
        // entries.
        long[] known = current.knownNodeGenerations();
        long[] generations = known == null ? null : known.clone();
        for (NodeInfo ni : changed.values()) {
          int at = current.indexByName().get(ni.name());
          arr[at] = ni;
          if (generations != null) {
            generations[at] = ni.generation();
          }
        }
        next = new Snapshot(arr, current.indexByName(), target, generations);
      }
      published = next;
      unpublishedChanges = 0;
      publishedTreeVersion = treeVersion;
      return next;
    } finally {
      lock.unlock();
    }
  }

  // ------------------------------------------------------------------------------------------------- diagnostics

  /**
   * Checks the cache against itself: every node's aggregate equals the sum over its pods, every pod
   * state points at a node entry holding that pod and vice versa, assumed pods have states, and the
   * node tree counts the nodes that have a Node object. Returns the inconsistencies found (empty
   * when none). Takes the lock for O(pods) time.
   */
  public List<String> checkConsistency() {
    List<String> problems = new ArrayList<>();
    lock.lock();
    try {
      int podsOnNodes = 0;
      int withNode = 0;
      for (Map.Entry<String, Item> e : nodes.entrySet()) {
        NodeInfo info = e.getValue().info;
        if (info.node() != null) {
          withNode++;
        }
        NodeInfo recomputed = new NodeInfo();
        for (PodInfo p : info.pods()) {
          podsOnNodes++;
          recomputed.addPod(p);
          PodState ps = podStates.get(p.uid());
          if (ps == null) {
            problems.add("pod " + p.key() + " is on node " + e.getKey() + " but has no pod state");
          } else if (!ps.pod.nodeName().equals(e.getKey())) {
            problems.add(
                "pod "
                    + p.key()
                    + " is on node "
                    + e.getKey()
                    + " but its state says "
                    + ps.pod.nodeName());
          }
        }
        if (!recomputed.requested().equals(info.requested())) {
          problems.add(
              "node "
                  + e.getKey()
                  + " requested "
                  + info.requested()
                  + " but its pods sum to "
                  + recomputed.requested());
        }
        if (!recomputed.nonZeroRequested().equals(info.nonZeroRequested())) {
          problems.add(
              "node "
                  + e.getKey()
                  + " non-zero requested "
                  + info.nonZeroRequested()
                  + " but its pods sum to "
                  + recomputed.nonZeroRequested());
        }
        if (!recomputed.pvcRefCounts().equals(info.pvcRefCounts())) {
          problems.add(
              "node "
                  + e.getKey()
                  + " PVC reference counts "
                  + info.pvcRefCounts()
                  + " but its pods give "
                  + recomputed.pvcRefCounts());
        }
        if (recomputed.usedPorts().size() != info.usedPorts().size()) {
          problems.add(
              "node "
                  + e.getKey()
                  + " has "
                  + info.usedPorts().size()
                  + " used host ports but its pods use "
                  + recomputed.usedPorts().size());
        }
        if (recomputed.podsWithAffinity().size() != info.podsWithAffinity().size()
            || recomputed.podsWithRequiredAntiAffinity().size()
                != info.podsWithRequiredAntiAffinity().size()) {
          problems.add("node " + e.getKey() + " affinity pod lists do not match its pods");
        }
        if (info.node() == null && info.pods().isEmpty()) {
          problems.add("node entry " + e.getKey() + " has neither a Node nor pods");
        }
      }
      if (podsOnNodes != podStates.size()) {
        problems.add(podStates.size() + " pod states but " + podsOnNodes + " pods on nodes");
      }
      for (String uid : assumedPods) {
        if (!podStates.containsKey(uid)) {
          problems.add("assumed pod " + uid + " has no pod state");
        }
      }
      if (withNode != nodeTree.numNodes()) {
        problems.add(
            "the node tree counts "
                + nodeTree.numNodes()
                + " nodes but "
                + withNode
                + " have a Node object");
      }
    } finally {
      lock.unlock();
    }
    return problems;
  }

  /** The number of nodes with a Node object. */
  public int nodeCount() {
    return withLock(() -> nodeTree.numNodes());
  }

  /** The number of pods held (assumed ones included). */
  public int podCount() {
    return withLock(() -> podStates.size());
  }

  /** The number of assumed pods. */
  public int assumedPodCount() {
    return withLock(() -> assumedPods.size());
  }

  /** How many inconsistencies were repaired since start. */
  public long corruptions() {
    return corruptions.get();
  }

  /** How many assumed pods expired since start. */
  public long expiredCount() {
    return expired.get();
  }

  /**
   * The assumed pods with when their binding finished deadline will pass (null = no deadline yet).
   */
  public Map<PodInfo, Instant> assumedPods() {
    lock.lock();
    try {
      Map<PodInfo, Instant> out = new LinkedHashMap<>();
      for (String key : assumedPods) {
        PodState ps = podStates.get(key);
        if (ps != null) {
          out.put(ps.pod, ps.deadline);
        }
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** Every cached pod (assumed and added). */
  public List<PodInfo> pods() {
    lock.lock();
    try {
      List<PodInfo> out = new ArrayList<>(podStates.size());
      for (PodState ps : podStates.values()) {
        out.add(ps.pod);
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** Names of node entries that have no Node object but still hold pods. */
  public List<String> ghostNodes() {
    lock.lock();
    try {
      List<String> out = new ArrayList<>();
      nodes.forEach(
          (name, item) -> {
            if (item.info.node() == null) {
              out.add(name);
            }
          });
      return out;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The live (mutable) node info of {@code name}, for tests that need to corrupt it; null when
   * absent.
   */
  NodeInfo nodeInfoForTest(String name) {
    Item it = nodes.get(name);
    return it == null ? null : it.info;
  }

  /**
   * A copy of the cached entry for {@code name} (ghost entries included), or null; for tests and
   * diagnostics.
   */
  NodeInfo nodeInfo(String name) {
    lock.lock();
    try {
      Item n = nodes.get(name);
      return n == null ? null : n.info.snapshotCopy();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Names of every node entry, most recently changed first (ghosts included); for tests and
   * diagnostics.
   */
  List<String> recencyOrder() {
    lock.lock();
    try {
      List<String> out = new ArrayList<>();
      for (Item n = head; n != null; n = n.next) {
        out.add(n.info.node() == null ? ghostName(n) : n.info.name());
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  private String ghostName(Item item) {
    for (Map.Entry<String, Item> e : nodes.entrySet()) {
      if (e.getValue() == item) {
        return e.getKey();
      }
    }
    return "?";
  }

  /** The node names in NodeTree order; for tests and diagnostics. */
  List<String> nodeTreeOrder() {
    lock.lock();
    try {
      return nodeTree.list();
    } finally {
      lock.unlock();
    }
  }

  private <T> T withLock(Supplier<T> read) {
    lock.lock();
    try {
      return read.get();
    } finally {
      lock.unlock();
    }
  }

  /** The TTL of assumed pods after binding finished (zero = never expire). */
  public Duration ttl() {
    return ttl;
  }
}

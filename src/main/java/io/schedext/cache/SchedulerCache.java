package io.schedext.cache;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.cache.NodeEntries.Item;
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

  /** One pod's state (read by {@link CacheDebugger} under the lock). */
  static final class PodState {
    PodInfo pod;
    Instant deadline;
    boolean bindingFinished;

    PodState(PodInfo pod) {
      this.pod = pod;
    }
  }

  private final Clock clock;
  private final Duration ttl;
  // Fair: a request building a snapshot during a burst of watch events waits for one update, not
  // for the burst.
  private final ReentrantLock lock = new ReentrantLock(true);

  /** Node changes since the last published snapshot (written under the lock). */
  private volatile int unpublishedChanges;

  final Map<String, PodState> podStates = new HashMap<>();
  final Set<String> assumedPods = new HashSet<>();
  final NodeEntries nodes = new NodeEntries();
  final NodeTree nodeTree = new NodeTree();
  private final ImageStates imageStates = new ImageStates();
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
      n = nodes.add(pod.nodeName());
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
        n = nodes.add(name);
      } else {
        previous = n.info.node();
      }
      // Most node updates are status heartbeats with the same images: the cluster's image state
      // then stays as it is (and so do the other nodes' image summaries).
      boolean sameImages =
          previous != null
              && Objects.equals(ImageStates.images(previous), ImageStates.images(newNode));
      if (previous != null && !sameImages) {
        imageStates.remove(previous);
      }
      if (previous == null) {
        nodeTree.addNode(newNode);
        treeVersion++;
      } else if (nodeTree.updateNode(previous, newNode)) {
        treeVersion++;
      }
      if (!sameImages) {
        imageStates.add(newNode);
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
      imageStates.remove(cached);
    } finally {
      lock.unlock();
    }
  }

  private static String goQuoted(String s) {
    return s.replace("\u0000", "\\x00");
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
        || item.summariesVersion != imageStates.version()) {
      item.summaries = imageStates.summaries(node);
      item.summariesOf = node;
      item.summariesVersion = imageStates.version();
    }
    return item.summaries;
  }

  private void moveToHead(String name) {
    Item n = nodes.moveToHead(name);
    if (n != null) {
      headGeneration = n.info.generation();
      unpublishedChanges++;
    }
  }

  private void removeItem(String name) {
    if (nodes.remove(name) != null) {
      // A removal changes the node set even though no remaining node's generation moved.
      headGeneration = NodeInfo.nextGeneration();
      unpublishedChanges++;
    }
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
      for (Item n = nodes.head(); n != null; n = n.next) {
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

  // ------------------------------------------------------------------------------------------------------ counts

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

  /** Every cached pod (assumed and added), O(pods) under the lock. */
  public List<PodInfo> pods() {
    return withLock(
        () -> {
          List<PodInfo> out = new ArrayList<>(podStates.size());
          for (PodState ps : podStates.values()) {
            out.add(ps.pod);
          }
          return out;
        });
  }

  /** Reads the cache's state under its lock (for {@link CacheDebugger}). */
  <T> T withLock(Supplier<T> read) {
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

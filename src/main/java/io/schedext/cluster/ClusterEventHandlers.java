package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.schedext.cache.EventGate;
import io.schedext.cache.SchedulerCache;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PodInfo;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the watch events do, as upstream's {@code eventhandlers.go}: nodes and assigned pods update
 * the scheduler cache (pods only while not Succeeded/Failed, as upstream's field selector),
 * unassigned pods are kept as {@link PendingPods} with their nominations, and every other kind goes
 * to the object store; each object is trimmed first ({@link Trim}). Node and pod events pass the
 * gate before they are applied, so they give way to the scheduling calls being answered. Handlers
 * are O(1), only update the cache, and survive out-of-order and missed events: a cache error is
 * logged, counted ({@link #handlerErrors()}) and repaired. Thread-safe.
 */
final class ClusterEventHandlers {

  private static final Logger log = LoggerFactory.getLogger(ClusterEventHandlers.class);

  private final SchedulerCache cache;
  private final ObjectStore store;
  private final PendingPods pending;
  private final EventGate gate;
  private final AtomicLong handlerErrors = new AtomicLong();
  private final AtomicLong events = new AtomicLong();

  /**
   * The handlers feeding {@code cache}, {@code pending} and {@code store}, holding node and pod
   * events at {@code gate}.
   */
  ClusterEventHandlers(
      SchedulerCache cache, ObjectStore store, PendingPods pending, EventGate gate) {
    this.cache = cache;
    this.store = store;
    this.pending = pending;
    this.gate = gate;
  }

  /** The handler of the Node informer. */
  ResourceEventHandler<Node> nodes() {
    return new NodeEvents();
  }

  /** The handler of the Pod informer (every pod but the Succeeded and Failed ones). */
  ResourceEventHandler<Pod> pods() {
    return new PodEvents();
  }

  /** A handler of an informer whose objects go to the object store as they are. */
  <T extends HasMetadata> ResourceEventHandler<T> toStore() {
    return new StoreEvents<>();
  }

  /** Events handled since start. */
  long events() {
    return events.get();
  }

  /** Handler failures (cache transitions refused and repaired) since start. */
  long handlerErrors() {
    return handlerErrors.get();
  }

  /** True when {@code p} is bound to a node, as upstream's {@code assignedPod}. */
  static boolean assigned(Pod p) {
    return p.getSpec() != null
        && p.getSpec().getNodeName() != null
        && !p.getSpec().getNodeName().isEmpty();
  }

  /** True when {@code p} has Succeeded or Failed: it no longer takes room on its node. */
  static boolean terminal(Pod p) {
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private void failed(String what, RuntimeException e) {
    handlerErrors.incrementAndGet();
    log.warn("{}: {}", what, e.getMessage());
  }

  private static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  private final class NodeEvents implements ResourceEventHandler<Node> {
    @Override
    public void onAdd(Node node) {
      gate.awaitQuiet();
      events.incrementAndGet();
      Trim.object(node);
      cache.addNode(node);
    }

    @Override
    public void onUpdate(Node oldNode, Node newNode) {
      gate.awaitQuiet();
      events.incrementAndGet();
      Trim.object(newNode);
      cache.updateNode(oldNode, newNode);
    }

    @Override
    public void onDelete(Node node, boolean finalStateUnknown) {
      gate.awaitQuiet();
      events.incrementAndGet();
      try {
        cache.removeNode(node);
      } catch (FrameworkException e) {
        failed("removing node " + node.getMetadata().getName(), e);
      }
    }
  }

  private final class PodEvents implements ResourceEventHandler<Pod> {
    @Override
    public void onAdd(Pod pod) {
      gate.awaitQuiet();
      events.incrementAndGet();
      Trim.object(pod);
      if (terminal(pod)) {
        return;
      }
      if (assigned(pod)) {
        addOrUpdateAssigned(pod);
      } else {
        addPending(pod);
      }
    }

    @Override
    public void onUpdate(Pod oldPod, Pod newPod) {
      gate.awaitQuiet();
      events.incrementAndGet();
      Trim.object(newPod);
      String oldUid = oldPod.getMetadata().getUid();
      if (terminal(newPod) || !newPod.getMetadata().getUid().equals(oldUid)) {
        onDelete(oldPod, false);
        if (!terminal(newPod)) {
          onAdd(newPod);
        }
        return;
      }
      boolean wasAssigned = assigned(oldPod);
      boolean isAssigned = assigned(newPod);
      if (isAssigned) {
        pending.remove(oldPod);
        addOrUpdateAssigned(newPod);
      } else {
        if (wasAssigned) {
          removeAssigned(oldPod);
        }
        addPending(newPod);
      }
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
      gate.awaitQuiet();
      events.incrementAndGet();
      pending.remove(pod);
      if (assigned(pod) || cache.getPod(pod.getMetadata().getUid()) != null) {
        removeAssigned(pod);
      }
    }

    /**
     * An assigned pod's add or update event: added, confirmed when assumed, or replacing the cached
     * version.
     */
    private void addOrUpdateAssigned(Pod pod) {
      try {
        cache.addOrUpdatePod(PodInfo.of(pod));
      } catch (FrameworkException | IllegalArgumentException e) {
        failed("adding or updating pod " + key(pod), e);
      }
    }

    private void removeAssigned(Pod pod) {
      PodInfo cached = cache.getPod(pod.getMetadata().getUid());
      if (cached == null) {
        return;
      }
      try {
        cache.removePod(cached);
      } catch (FrameworkException e) {
        failed("removing pod " + key(pod), e);
      }
    }

    private void addPending(Pod pod) {
      try {
        pending.add(pod);
      } catch (IllegalArgumentException e) {
        failed("nominated pod " + key(pod), e);
      }
    }
  }

  private final class StoreEvents<T extends HasMetadata> implements ResourceEventHandler<T> {
    @Override
    public void onAdd(T obj) {
      events.incrementAndGet();
      Trim.object(obj);
      store.put(obj);
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
      events.incrementAndGet();
      Trim.object(newObj);
      store.put(newObj);
    }

    @Override
    public void onDelete(T obj, boolean finalStateUnknown) {
      events.incrementAndGet();
      store.remove(obj);
    }
  }
}

package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.ResourceSlices;
import io.schedext.framework.TakenDevices;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the last search found on each node, for the next cycle whose claims ask for the same: a
 * search's outcome depends only on the claims' requests and constraints, their classes, the pools
 * the node reaches (its slices, the slices for all or several nodes, its labels) and which of those
 * pools' devices are taken. When none of these changed, the node's devices are the ones found
 * before, and the search is not run again. Pods of one workload ask for the same devices, and a
 * node's taken devices change only when a claim takes or frees one of them, so in a stream of such
 * pods most nodes are answered from here; so are repeated explains of one pod. Searches that fail
 * (a broken claim or pool, the time limit) are not kept. Each node keeps its own in a {@link Slot}
 * of its node info. Thread-safe.
 */
final class NodeVerdicts {

  /**
   * What a search depends on besides the node: the claims' requests and constraints (by value) and
   * their classes (by identity: a changed class is a new object). Equal shapes search alike.
   */
  static final class Shape {

    private final List<Object> specs;
    private final List<DeviceClass> classes;

    private Shape(List<Object> specs, List<DeviceClass> classes) {
      this.specs = specs;
      this.classes = classes;
    }

    /** The shape of a search for {@code claims}, with their classes looked up in {@code a}. */
    static Shape of(List<ResourceClaim> claims, Allocator a) {
      List<Object> specs = new ArrayList<>(2 * claims.size());
      List<DeviceClass> classes = new ArrayList<>();
      for (ResourceClaim c : claims) {
        List<DeviceRequest> requests = Allocator.requests(c);
        List<DeviceConstraint> constraints = Allocator.constraints(c);
        specs.add(requests);
        specs.add(constraints);
        for (DeviceRequest r : requests) {
          if (r.getExactly() != null) {
            classes.add(a.deviceClass(r.getExactly().getDeviceClassName()));
          }
          if (r.getFirstAvailable() != null) {
            r.getFirstAvailable()
                .forEach(sub -> classes.add(a.deviceClass(sub.getDeviceClassName())));
          }
        }
      }
      return new Shape(specs, classes);
    }

    /** Whether a search of this shape finds what one of {@code other} finds. */
    boolean sameAs(Shape other) {
      if (other == this) {
        return true;
      }
      if (other == null || other.classes.size() != classes.size()) {
        return false;
      }
      for (int i = 0; i < classes.size(); i++) {
        if (classes.get(i) != other.classes.get(i)) {
          return false;
        }
      }
      return specs.equals(other.specs);
    }
  }

  /**
   * A node's last search.
   *
   * @param shape the shape searched for
   * @param slices the cluster's slice index then (a new one whenever any slice changes)
   * @param pools the node's pools then
   * @param taken per pool, the set of its devices taken then (the same set while none changed)
   * @param found what was found, or null when the claims did not fit
   */
  record Verdict(
      Shape shape, ResourceSlices slices, List<Pools.Pool> pools, Set<?>[] taken, Solution found) {

    boolean holdsFor(Shape s, ResourceSlices index, TakenDevices allocated) {
      if (shape != s || slices != index) {
        return false;
      }
      for (int i = 0; i < pools.size(); i++) {
        Pools.Pool pool = pools.get(i);
        if (taken[i] != allocated.inPool(pool.driver(), pool.name())) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * A node's place for its last search, kept by the node's {@link NodeInfo} (which the Filter has
   * in hand: no lookup by name) for as long as that node info is unchanged; a node whose labels or
   * pods change gets a new node info, and an empty slot with it. Every read checks the search
   * against all it depended on, so the slot is shared by concurrent requests safely.
   */
  static final class Slot {

    private volatile Verdict verdict;

    /**
     * The last search on this node ({@link Verdict#found} is null when the claims did not fit), if
     * it searched for {@code shape} with slice index {@code slices} and the same devices taken in
     * the node's pools; null when it must search again.
     */
    Verdict lookup(Shape shape, ResourceSlices slices, TakenDevices allocated, LongAdder reused) {
      Verdict v = verdict;
      if (v == null || !v.holdsFor(shape, slices, allocated)) {
        return null;
      }
      reused.increment();
      return v;
    }

    /** Keeps what a search for {@code shape} found (null: the claims do not fit). */
    void keep(
        Shape shape,
        ResourceSlices slices,
        List<Pools.Pool> pools,
        TakenDevices allocated,
        Solution found) {
      Set<?>[] taken = new Set<?>[pools.size()];
      for (int i = 0; i < taken.length; i++) {
        Pools.Pool pool = pools.get(i);
        taken[i] = allocated.inPool(pool.driver(), pool.name());
      }
      verdict = new Verdict(shape, slices, pools, taken, found);
    }
  }

  private final LongAdder reused = new LongAdder();
  private volatile Shape last;

  /**
   * {@code shape}, or the shape of the cycle before when they are the same, so that nodes searched
   * then are known by identity.
   */
  Shape canonical(Shape shape) {
    Shape before = last;
    if (shape.sameAs(before)) {
      return before;
    }
    last = shape;
    return shape;
  }

  /** The slot of {@code node} for this plugin's searches. */
  Slot slot(NodeInfo node) {
    return node.memoizeObject(this, this, (n, self) -> new Slot());
  }

  /** Counts a search answered from a slot. */
  LongAdder reusedCounter() {
    return reused;
  }

  /** How many searches were answered from a slot. */
  long reused() {
    return reused.sum();
  }
}

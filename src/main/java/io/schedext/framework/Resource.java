package io.schedext.framework;

import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.kube.Quantities;
import io.schedext.kube.ResourceNames;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Compute resources as integers: CPU in millicores, memory and ephemeral storage in bytes, the pod count, and scalar
 * resources (extended, hugepages, attachable volumes) by name. Mutable and not thread-safe; the cache mutates it
 * under its lock and snapshots hold private copies.
 */
public final class Resource {

  private long milliCpu;
  private long memory;
  private long ephemeralStorage;
  private long allowedPodNumber;
  private Map<String, Long> scalar;

  /** An empty resource. */
  public Resource() {}

  /** A resource with the given amounts and no scalars. */
  public Resource(long milliCpu, long memory, long ephemeralStorage, long allowedPodNumber) {
    this.milliCpu = milliCpu;
    this.memory = memory;
    this.ephemeralStorage = ephemeralStorage;
    this.allowedPodNumber = allowedPodNumber;
  }

  /** Converts a resource list (allocatable, capacity) as upstream's {@code NewResource}. */
  public static Resource fromQuantities(Map<String, Quantity> list) {
    Resource r = new Resource();
    if (list != null) {
      for (Map.Entry<String, Quantity> e : list.entrySet()) {
        r.addDecimal(e.getKey(), Quantities.decimal(e.getValue()));
      }
    }
    return r;
  }

  /** Converts exact per-resource amounts (pod requests) as upstream's {@code Resource.Add}. */
  public static Resource fromDecimals(Map<String, BigDecimal> list) {
    Resource r = new Resource();
    for (Map.Entry<String, BigDecimal> e : list.entrySet()) {
      r.addDecimal(e.getKey(), e.getValue());
    }
    return r;
  }

  private void addDecimal(String name, BigDecimal v) {
    switch (name) {
      case ResourceNames.CPU -> milliCpu += Quantities.roundUpToLong(v.movePointRight(3));
      case ResourceNames.MEMORY -> memory += Quantities.roundUpToLong(v);
      case ResourceNames.PODS -> allowedPodNumber += Quantities.roundUpToLong(v);
      case ResourceNames.EPHEMERAL_STORAGE -> ephemeralStorage += Quantities.roundUpToLong(v);
      default -> {
        if (ResourceNames.isScalar(name)) {
          addScalar(name, Quantities.roundUpToLong(v));
        }
      }
    }
  }

  /** CPU in millicores. */
  public long milliCpu() {
    return milliCpu;
  }

  /** Memory in bytes. */
  public long memory() {
    return memory;
  }

  /** Ephemeral storage in bytes. */
  public long ephemeralStorage() {
    return ephemeralStorage;
  }

  /** The number of pods allowed (allocatable only). */
  public long allowedPodNumber() {
    return allowedPodNumber;
  }

  /** The scalar resources by name; never null, unmodifiable. */
  public Map<String, Long> scalarResources() {
    return scalar == null ? Map.of() : Collections.unmodifiableMap(scalar);
  }

  /** The amount of scalar resource {@code name}, 0 when absent. */
  public long scalar(String name) {
    if (scalar == null) {
      return 0;
    }
    Long v = scalar.get(name);
    return v == null ? 0 : v;
  }

  /** True when the resource has at least one scalar entry. */
  public boolean hasScalars() {
    return scalar != null && !scalar.isEmpty();
  }

  /** Returns the amount of a resource by its Kubernetes name (cpu in millicores), 0 when absent. */
  public long get(String name) {
    return switch (name) {
      case ResourceNames.CPU -> milliCpu;
      case ResourceNames.MEMORY -> memory;
      case ResourceNames.EPHEMERAL_STORAGE -> ephemeralStorage;
      case ResourceNames.PODS -> allowedPodNumber;
      default -> scalar(name);
    };
  }

  /** Sets CPU in millicores. */
  public void setMilliCpu(long v) {
    milliCpu = v;
  }

  /** Sets memory in bytes. */
  public void setMemory(long v) {
    memory = v;
  }

  /** Sets ephemeral storage in bytes. */
  public void setEphemeralStorage(long v) {
    ephemeralStorage = v;
  }

  /** Sets the allowed pod number. */
  public void setAllowedPodNumber(long v) {
    allowedPodNumber = v;
  }

  /** Sets scalar resource {@code name}. */
  public void setScalar(String name, long v) {
    if (scalar == null) {
      scalar = new HashMap<>(4);
    }
    scalar.put(name, v);
  }

  /** Adds {@code v} to scalar resource {@code name}. */
  public void addScalar(String name, long v) {
    if (scalar == null) {
      scalar = new HashMap<>(4);
    }
    scalar.merge(name, v, Long::sum);
  }

  /** Adds every amount of {@code other} to this. */
  public void add(Resource other) {
    milliCpu += other.milliCpu;
    memory += other.memory;
    ephemeralStorage += other.ephemeralStorage;
    allowedPodNumber += other.allowedPodNumber;
    if (other.scalar != null) {
      other.scalar.forEach(this::addScalar);
    }
  }

  /** Subtracts every amount of {@code other} from this. */
  public void subtract(Resource other) {
    milliCpu -= other.milliCpu;
    memory -= other.memory;
    ephemeralStorage -= other.ephemeralStorage;
    allowedPodNumber -= other.allowedPodNumber;
    if (other.scalar != null) {
      other.scalar.forEach((k, v) -> addScalar(k, -v));
    }
  }

  /** A deep copy. */
  public Resource copy() {
    Resource r = new Resource(milliCpu, memory, ephemeralStorage, allowedPodNumber);
    if (scalar != null) {
      r.scalar = new HashMap<>(scalar);
    }
    return r;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Resource r
        && milliCpu == r.milliCpu
        && memory == r.memory
        && ephemeralStorage == r.ephemeralStorage
        && allowedPodNumber == r.allowedPodNumber
        && scalarResources().equals(r.scalarResources());
  }

  @Override
  public int hashCode() {
    return Long.hashCode(milliCpu) * 31 + Long.hashCode(memory);
  }

  @Override
  public String toString() {
    return "{milliCPU=" + milliCpu + ", memory=" + memory + ", ephemeralStorage=" + ephemeralStorage
        + ", pods=" + allowedPodNumber + (hasScalars() ? ", scalar=" + scalar : "") + "}";
  }
}

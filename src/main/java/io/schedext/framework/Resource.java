package io.schedext.framework;

import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.kube.Quantities;
import io.schedext.kube.ResourceNames;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Compute resources as integers: CPU in millicores, memory and ephemeral storage in bytes, the pod
 * count, and scalar resources (extended, hugepages, attachable volumes) by name. Mutable and not
 * thread-safe; the cache mutates it under its lock and snapshots hold private copies.
 *
 * <p>Sums never overflow into nonsense. The API server accepts requests up to about 9.22e15 cores
 * and 8Ei of memory, each alone at the edge of a 64-bit long, so a node's sum of them can pass it.
 * Upstream's int64 sums wrap around there (a node that looks nearly empty, a negative score); here
 * every amount keeps, beside its 64-bit value, how many times its sum wrapped, so adding and
 * subtracting stay exact, and the getters answer the amount saturated at the long range ({@link
 * Long#MAX_VALUE} for a sum beyond it).
 */
public final class Resource {

  private long milliCpu;
  private long memory;
  private long ephemeralStorage;
  private long allowedPodNumber;
  private Map<String, Long> scalar;

  /**
   * How many times each sum wrapped past the long range (+1 up, -1 down): the amount is value +
   * carry × 2^64.
   */
  private int milliCpuCarry;

  private int memoryCarry;
  private int ephemeralStorageCarry;
  private int allowedPodNumberCarry;

  /** The carries of the scalar sums that wrapped, by name; null while none did. */
  private Map<String, Integer> scalarCarry;

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
      case ResourceNames.CPU -> addMilliCpu(Quantities.roundUpToLong(v.movePointRight(3)));
      case ResourceNames.MEMORY -> addMemory(Quantities.roundUpToLong(v));
      case ResourceNames.PODS -> addAllowedPodNumber(Quantities.roundUpToLong(v));
      case ResourceNames.EPHEMERAL_STORAGE -> addEphemeralStorage(Quantities.roundUpToLong(v));
      default -> {
        if (ResourceNames.isScalar(name)) {
          addScalar(name, Quantities.roundUpToLong(v));
        }
      }
    }
  }

  /** CPU in millicores. */
  public long milliCpu() {
    return saturated(milliCpu, milliCpuCarry);
  }

  /** Memory in bytes. */
  public long memory() {
    return saturated(memory, memoryCarry);
  }

  /** Ephemeral storage in bytes. */
  public long ephemeralStorage() {
    return saturated(ephemeralStorage, ephemeralStorageCarry);
  }

  /** The number of pods allowed (allocatable only). */
  public long allowedPodNumber() {
    return saturated(allowedPodNumber, allowedPodNumberCarry);
  }

  /** The scalar resources by name; never null, unmodifiable. */
  public Map<String, Long> scalarResources() {
    if (scalar == null) {
      return Map.of();
    }
    if (scalarCarry == null) {
      return Collections.unmodifiableMap(scalar);
    }
    Map<String, Long> out = new HashMap<>(scalar);
    scalarCarry.forEach((name, carry) -> out.put(name, saturated(scalar.get(name), carry)));
    return Collections.unmodifiableMap(out);
  }

  /** The amount of scalar resource {@code name}, 0 when absent. */
  public long scalar(String name) {
    if (scalar == null) {
      return 0;
    }
    Long v = scalar.get(name);
    if (v == null) {
      return 0;
    }
    Integer carry = scalarCarry == null ? null : scalarCarry.get(name);
    return carry == null ? v : saturated(v, carry);
  }

  /** True when the resource has at least one scalar entry. */
  public boolean hasScalars() {
    return scalar != null && !scalar.isEmpty();
  }

  /** Returns the amount of a resource by its Kubernetes name (cpu in millicores), 0 when absent. */
  public long get(String name) {
    return switch (name) {
      case ResourceNames.CPU -> milliCpu();
      case ResourceNames.MEMORY -> memory();
      case ResourceNames.EPHEMERAL_STORAGE -> ephemeralStorage();
      case ResourceNames.PODS -> allowedPodNumber();
      default -> scalar(name);
    };
  }

  /** Sets CPU in millicores. */
  public void setMilliCpu(long v) {
    milliCpu = v;
    milliCpuCarry = 0;
  }

  /** Sets memory in bytes. */
  public void setMemory(long v) {
    memory = v;
    memoryCarry = 0;
  }

  /** Sets ephemeral storage in bytes. */
  public void setEphemeralStorage(long v) {
    ephemeralStorage = v;
    ephemeralStorageCarry = 0;
  }

  /** Sets the allowed pod number. */
  public void setAllowedPodNumber(long v) {
    allowedPodNumber = v;
    allowedPodNumberCarry = 0;
  }

  /** Adds {@code v} (negative: subtracts) to CPU in millicores, exactly (see the class comment). */
  public void addMilliCpu(long v) {
    long r = milliCpu + v;
    milliCpuCarry += carryOfAdd(milliCpu, v, r);
    milliCpu = r;
  }

  /** Adds {@code v} (negative: subtracts) to memory in bytes, exactly (see the class comment). */
  public void addMemory(long v) {
    long r = memory + v;
    memoryCarry += carryOfAdd(memory, v, r);
    memory = r;
  }

  private void addEphemeralStorage(long v) {
    long r = ephemeralStorage + v;
    ephemeralStorageCarry += carryOfAdd(ephemeralStorage, v, r);
    ephemeralStorage = r;
  }

  private void addAllowedPodNumber(long v) {
    long r = allowedPodNumber + v;
    allowedPodNumberCarry += carryOfAdd(allowedPodNumber, v, r);
    allowedPodNumber = r;
  }

  /** Sets scalar resource {@code name}. */
  public void setScalar(String name, long v) {
    if (scalar == null) {
      scalar = new HashMap<>(4);
    }
    scalar.put(name, v);
    setScalarCarry(name, 0);
  }

  /** Adds {@code v} to scalar resource {@code name}. */
  public void addScalar(String name, long v) {
    addScalar(name, v, 0, 1);
  }

  /** Adds {@code sign} × ({@code v} + {@code carry} × 2^64) to scalar resource {@code name}. */
  private void addScalar(String name, long v, int carry, int sign) {
    if (scalar == null) {
      scalar = new HashMap<>(4);
    }
    Long old = scalar.get(name);
    long cur = old == null ? 0 : old;
    int curCarry = scalarCarry == null ? 0 : scalarCarry.getOrDefault(name, 0);
    long r = sign > 0 ? cur + v : cur - v;
    int c = sign > 0 ? carryOfAdd(cur, v, r) : carryOfSubtract(cur, v, r);
    scalar.put(name, r);
    setScalarCarry(name, curCarry + sign * carry + c);
  }

  private void setScalarCarry(String name, int carry) {
    if (carry != 0) {
      if (scalarCarry == null) {
        scalarCarry = new HashMap<>(2);
      }
      scalarCarry.put(name, carry);
    } else if (scalarCarry != null) {
      scalarCarry.remove(name);
      if (scalarCarry.isEmpty()) {
        scalarCarry = null;
      }
    }
  }

  /** Adds every amount of {@code other} to this, exactly (see the class comment). */
  public void add(Resource other) {
    long r = milliCpu + other.milliCpu;
    milliCpuCarry += other.milliCpuCarry + carryOfAdd(milliCpu, other.milliCpu, r);
    milliCpu = r;
    r = memory + other.memory;
    memoryCarry += other.memoryCarry + carryOfAdd(memory, other.memory, r);
    memory = r;
    r = ephemeralStorage + other.ephemeralStorage;
    ephemeralStorageCarry +=
        other.ephemeralStorageCarry + carryOfAdd(ephemeralStorage, other.ephemeralStorage, r);
    ephemeralStorage = r;
    r = allowedPodNumber + other.allowedPodNumber;
    allowedPodNumberCarry +=
        other.allowedPodNumberCarry + carryOfAdd(allowedPodNumber, other.allowedPodNumber, r);
    allowedPodNumber = r;
    if (other.scalar != null) {
      other.scalar.forEach((k, v) -> addScalar(k, v, other.scalarCarryOf(k), 1));
    }
  }

  /** Subtracts every amount of {@code other} from this, exactly (see the class comment). */
  public void subtract(Resource other) {
    long r = milliCpu - other.milliCpu;
    milliCpuCarry += -other.milliCpuCarry + carryOfSubtract(milliCpu, other.milliCpu, r);
    milliCpu = r;
    r = memory - other.memory;
    memoryCarry += -other.memoryCarry + carryOfSubtract(memory, other.memory, r);
    memory = r;
    r = ephemeralStorage - other.ephemeralStorage;
    ephemeralStorageCarry +=
        -other.ephemeralStorageCarry + carryOfSubtract(ephemeralStorage, other.ephemeralStorage, r);
    ephemeralStorage = r;
    r = allowedPodNumber - other.allowedPodNumber;
    allowedPodNumberCarry +=
        -other.allowedPodNumberCarry + carryOfSubtract(allowedPodNumber, other.allowedPodNumber, r);
    allowedPodNumber = r;
    if (other.scalar != null) {
      other.scalar.forEach((k, v) -> addScalar(k, v, other.scalarCarryOf(k), -1));
    }
  }

  private int scalarCarryOf(String name) {
    return scalarCarry == null ? 0 : scalarCarry.getOrDefault(name, 0);
  }

  /** {@code a + b}, saturated at the long range instead of wrapping around. */
  public static long saturatedAdd(long a, long b) {
    long r = a + b;
    int carry = carryOfAdd(a, b, r);
    return carry == 0 ? r : carry > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
  }

  /**
   * +1 when {@code r = a + b} wrapped past {@link Long#MAX_VALUE}, -1 past {@link Long#MIN_VALUE},
   * else 0.
   */
  private static int carryOfAdd(long a, long b, long r) {
    return ((a ^ r) & (b ^ r)) >= 0 ? 0 : b > 0 ? 1 : -1;
  }

  /**
   * +1 when {@code r = a - b} wrapped past {@link Long#MAX_VALUE}, -1 past {@link Long#MIN_VALUE},
   * else 0.
   */
  private static int carryOfSubtract(long a, long b, long r) {
    return ((a ^ b) & (a ^ r)) >= 0 ? 0 : b < 0 ? 1 : -1;
  }

  /** The amount {@code value + carry × 2^64}, saturated at the long range. */
  private static long saturated(long value, int carry) {
    return carry == 0 ? value : carry > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
  }

  /** A deep copy. */
  public Resource copy() {
    Resource r = new Resource(milliCpu, memory, ephemeralStorage, allowedPodNumber);
    r.milliCpuCarry = milliCpuCarry;
    r.memoryCarry = memoryCarry;
    r.ephemeralStorageCarry = ephemeralStorageCarry;
    r.allowedPodNumberCarry = allowedPodNumberCarry;
    if (scalar != null) {
      r.scalar = new HashMap<>(scalar);
    }
    if (scalarCarry != null) {
      r.scalarCarry = new HashMap<>(scalarCarry);
    }
    return r;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Resource r
        && milliCpu == r.milliCpu
        && milliCpuCarry == r.milliCpuCarry
        && memory == r.memory
        && memoryCarry == r.memoryCarry
        && ephemeralStorage == r.ephemeralStorage
        && ephemeralStorageCarry == r.ephemeralStorageCarry
        && allowedPodNumber == r.allowedPodNumber
        && allowedPodNumberCarry == r.allowedPodNumberCarry
        && scalarResources().equals(r.scalarResources())
        && Objects.equals(scalarCarry, r.scalarCarry);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(milliCpu) * 31 + Long.hashCode(memory);
  }

  @Override
  public String toString() {
    return "{milliCPU="
        + milliCpu()
        + ", memory="
        + memory()
        + ", ephemeralStorage="
        + ephemeralStorage()
        + ", pods="
        + allowedPodNumber()
        + (hasScalars() ? ", scalar=" + scalarResources() : "")
        + "}";
  }
}

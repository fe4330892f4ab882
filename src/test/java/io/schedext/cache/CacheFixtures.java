package io.schedext.cache;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.framework.HostPortInfo.ProtocolPort;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.Resource;
import io.schedext.testing.MakePod;
import io.schedext.testing.PodWrapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Small builders and views shared by the cache tests. */
final class CacheFixtures {

  /** The start time of every test clock. */
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private CacheFixtures() {}

  /**
   * A pod with one container asking for {@code cpu}/{@code mem} (both skipped when cpu is empty),
   * an optional extended resource {@code "name:qty"}, and one host port when {@code hostPort > 0};
   * uid = name.
   */
  static PodInfo basePod(
      String node,
      String name,
      String cpu,
      String mem,
      String extended,
      String hostIp,
      int hostPort) {
    Map<String, String> req = new LinkedHashMap<>();
    if (!cpu.isEmpty()) {
      req.put("cpu", cpu);
      req.put("memory", mem);
      if (!extended.isEmpty()) {
        String[] parts = extended.split(":");
        req.put(parts[0], parts[1]);
      }
    }
    PodWrapper w =
        MakePod.pod().name(name).namespace("node_info_cache_test").uid(name).node(node).req(req);
    if (hostPort > 0) {
      w.hostPort("TCP", hostIp, hostPort);
    }
    return w.info();
  }

  static PodInfo basePod(String node, String name, String cpu, String mem, int hostPort) {
    return basePod(node, name, cpu, mem, "", "127.0.0.1", hostPort);
  }

  static Resource res(long milliCpu, long memory) {
    return new Resource(milliCpu, memory, 0, 0);
  }

  static Resource res(long milliCpu, long memory, String scalar, long amount) {
    Resource r = res(milliCpu, memory);
    r.setScalar(scalar, amount);
    return r;
  }

  static Map<String, Set<ProtocolPort>> ports(Object... ipProtoPort) {
    Map<String, Set<ProtocolPort>> out = new LinkedHashMap<>();
    for (int i = 0; i < ipProtoPort.length; i += 3) {
      out.computeIfAbsent((String) ipProtoPort[i], k -> new HashSet<>())
          .add(new ProtocolPort((String) ipProtoPort[i + 1], (Integer) ipProtoPort[i + 2]));
    }
    return out;
  }

  /**
   * What a node entry aggregates, for whole-value comparison.
   *
   * @param pods the pod uids in NodeInfo order
   * @param requested summed requests
   * @param nonZero summed non-zero requests
   * @param ports used host ports
   */
  record Agg(
      List<String> pods,
      Resource requested,
      Resource nonZero,
      Map<String, Set<ProtocolPort>> ports) {

    static Agg of(NodeInfo n) {
      if (n == null) {
        return null;
      }
      List<String> uids = new ArrayList<>();
      n.pods().forEach(p -> uids.add(p.uid()));
      return new Agg(
          uids, n.requested(), n.nonZeroRequested(), Map.copyOf(n.usedPorts().entries()));
    }
  }

  /**
   * Everything a snapshot node carries except identity, generation, image states and pod order, for
   * comparing an incrementally maintained snapshot with one built from scratch.
   */
  record Content(
      String name,
      Node node,
      Set<String> pods,
      Resource requested,
      Resource nonZero,
      Resource allocatable,
      Map<String, Set<ProtocolPort>> ports,
      Map<String, Integer> pvcRefCounts,
      Set<String> podsWithAffinity,
      Set<String> podsWithRequiredAntiAffinity) {

    static Content of(NodeInfo n) {
      return new Content(
          n.name(),
          n.node(),
          uids(n.pods()),
          n.requested(),
          n.nonZeroRequested(),
          n.allocatable(),
          Map.copyOf(n.usedPorts().entries()),
          Map.copyOf(n.pvcRefCounts()),
          uids(n.podsWithAffinity()),
          uids(n.podsWithRequiredAntiAffinity()));
    }

    private static Set<String> uids(List<PodInfo> pods) {
      Set<String> s = new TreeSet<>();
      pods.forEach(p -> s.add(p.uid()));
      return s;
    }
  }
}

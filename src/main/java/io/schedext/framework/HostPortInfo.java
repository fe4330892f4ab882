package io.schedext.framework;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Host ports in use on a node: host IP to a set of (protocol, port). An empty IP means {@code
 * 0.0.0.0} and an empty protocol means TCP, as upstream's {@code HostPortInfo}. Not thread-safe.
 */
public final class HostPortInfo {

  /** The wildcard host IP. */
  public static final String DEFAULT_BIND_ALL_HOST_IP = "0.0.0.0";

  /**
   * One protocol and port.
   *
   * @param protocol TCP, UDP or SCTP
   * @param port the port
   */
  public record ProtocolPort(String protocol, int port) {

    /** Normalises an empty protocol to TCP. */
    public static ProtocolPort of(String protocol, int port) {
      return new ProtocolPort(protocol == null || protocol.isEmpty() ? "TCP" : protocol, port);
    }
  }

  private final Map<String, Set<ProtocolPort>> ports = new HashMap<>();

  /** Records (ip, protocol, port); ports ≤ 0 are ignored. */
  public void add(String ip, String protocol, int port) {
    if (port <= 0) {
      return;
    }
    ports
        .computeIfAbsent(normaliseIp(ip), k -> new HashSet<>())
        .add(ProtocolPort.of(protocol, port));
  }

  /** Forgets (ip, protocol, port); ports ≤ 0 are ignored. */
  public void remove(String ip, String protocol, int port) {
    if (port <= 0) {
      return;
    }
    String key = normaliseIp(ip);
    Set<ProtocolPort> s = ports.get(key);
    if (s != null) {
      s.remove(ProtocolPort.of(protocol, port));
      if (s.isEmpty()) {
        ports.remove(key);
      }
    }
  }

  /**
   * True when (ip, protocol, port) conflicts: a wildcard IP conflicts with the port on any IP, a
   * specific IP with the same IP or the wildcard.
   */
  public boolean checkConflict(String ip, String protocol, int port) {
    if (port <= 0) {
      return false;
    }
    String key = normaliseIp(ip);
    ProtocolPort pp = ProtocolPort.of(protocol, port);
    if (key.equals(DEFAULT_BIND_ALL_HOST_IP)) {
      for (Set<ProtocolPort> s : ports.values()) {
        if (s.contains(pp)) {
          return true;
        }
      }
      return false;
    }
    for (String k : new String[] {DEFAULT_BIND_ALL_HOST_IP, key}) {
      Set<ProtocolPort> s = ports.get(k);
      if (s != null && s.contains(pp)) {
        return true;
      }
    }
    return false;
  }

  /** The number of (ip, protocol, port) entries. */
  public int size() {
    int n = 0;
    for (Set<ProtocolPort> s : ports.values()) {
      n += s.size();
    }
    return n;
  }

  /** A read-only view of the entries by IP. */
  public Map<String, Set<ProtocolPort>> entries() {
    return Collections.unmodifiableMap(ports);
  }

  /** A deep copy. */
  public HostPortInfo copy() {
    HostPortInfo c = new HostPortInfo();
    ports.forEach((k, v) -> c.ports.put(k, new HashSet<>(v)));
    return c;
  }

  private static String normaliseIp(String ip) {
    return ip == null || ip.isEmpty() ? DEFAULT_BIND_ALL_HOST_IP : ip;
  }
}

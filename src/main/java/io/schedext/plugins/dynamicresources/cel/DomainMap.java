package io.schedext.plugins.dynamicresources.cel;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * The outer map of {@code device.attributes} and {@code device.capacity} (domain to the attributes
 * of that domain): looking a domain up that the device has nothing in gives an empty map instead of
 * an error, as kube-scheduler's selector environment does, so {@code
 * device.attributes["other.example.com"].size() == 0} holds. Membership ({@code in}) and iteration
 * see only the domains really there. Immutable.
 */
final class DomainMap extends AbstractMap<String, Object> {

  private final Map<String, Object> domains;

  DomainMap(Map<String, Object> domains) {
    this.domains = domains;
  }

  /** Whether the device has anything in {@code domain}: what {@code in} answers. */
  boolean has(Object domain) {
    return domains.containsKey(domain);
  }

  @Override
  public boolean containsKey(Object key) {
    return key instanceof String;
  }

  @Override
  public Object get(Object key) {
    Object v = domains.get(key);
    return v != null || !(key instanceof String) ? v : Map.of();
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    return domains.entrySet();
  }

  @Override
  public int size() {
    return domains.size();
  }
}

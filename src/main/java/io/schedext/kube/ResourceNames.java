package io.schedext.kube;

/** Names and classification of Kubernetes resource names, as in the core v1 helpers. */
public final class ResourceNames {

  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
  public static final String PODS = "pods";
  public static final String HUGEPAGES_PREFIX = "hugepages-";
  public static final String ATTACHABLE_VOLUMES_PREFIX = "attachable-volumes-";
  public static final String REQUESTS_PREFIX = "requests.";
  private static final String NATIVE_DOMAIN = "kubernetes.io/";

  private ResourceNames() {}

  /** True for names in the kubernetes.io domain or without a domain. */
  public static boolean isNative(String name) {
    return !name.contains("/") || name.contains(NATIVE_DOMAIN);
  }

  /** True for names prefixed with the kubernetes.io domain. */
  public static boolean isPrefixedNative(String name) {
    return name.contains(NATIVE_DOMAIN);
  }

  /**
   * True for extended resources: outside the kubernetes.io domain and not a quota "requests." name.
   */
  public static boolean isExtended(String name) {
    if (isNative(name) || name.startsWith(REQUESTS_PREFIX)) {
      return false;
    }
    return QualifiedNames.isQualifiedName(REQUESTS_PREFIX + name);
  }

  /** True for hugepages-&lt;size&gt; names. */
  public static boolean isHugePages(String name) {
    return name.startsWith(HUGEPAGES_PREFIX);
  }

  /** True for attachable-volumes-* names. */
  public static boolean isAttachableVolume(String name) {
    return name.startsWith(ATTACHABLE_VOLUMES_PREFIX);
  }

  /**
   * True for resources accounted as scalars: extended, hugepages, prefixed native and attachable
   * volumes.
   */
  public static boolean isScalar(String name) {
    return isExtended(name)
        || isHugePages(name)
        || isPrefixedNative(name)
        || isAttachableVolume(name);
  }
}

package io.schedext.plugins.volumebinding;

/**
 * The messages of client-go's informer listers when an object is missing ({@code
 * errors.NewNotFound} with the singular resource name), which upstream plugins pass on as status
 * reasons.
 */
public final class NotFound {

  private NotFound() {}

  /** {@code persistentvolumeclaim "<name>" not found}. */
  public static String claim(String name) {
    return "persistentvolumeclaim \"" + name + "\" not found";
  }

  /** {@code persistentvolume "<name>" not found}. */
  public static String volume(String name) {
    return "persistentvolume \"" + name + "\" not found";
  }

  /** {@code storageclass.storage.k8s.io "<name>" not found}. */
  public static String storageClass(String name) {
    return "storageclass.storage.k8s.io \"" + name + "\" not found";
  }
}

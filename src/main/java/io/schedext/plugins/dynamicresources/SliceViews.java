package io.schedext.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link SliceView} of each ResourceSlice, kept across cycles and made again when the store
 * holds a new object for the slice's name. Entries of deleted slices are dropped when the map grows
 * past twice the slices seen. Thread-safe.
 */
final class SliceViews {

  private final ConcurrentHashMap<String, SliceView> byName = new ConcurrentHashMap<>();
  private volatile int sliceCount;

  /** The view of {@code slice}. */
  SliceView of(ResourceSlice slice) {
    String name = slice.getMetadata() == null ? "" : slice.getMetadata().getName();
    SliceView v = byName.get(name);
    if (v != null && v.slice() == slice) {
      return v;
    }
    v = new SliceView(slice);
    byName.put(name, v);
    return v;
  }

  /** Notes that the cluster has {@code count} slices; forgets stale views when there are many. */
  void seen(int count) {
    sliceCount = count;
    if (byName.size() > 2 * Math.max(count, 16)) {
      byName.clear();
    }
  }

  int size() {
    return byName.size();
  }

  int slices() {
    return sliceCount;
  }
}

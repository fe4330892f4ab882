package io.schedext.cache;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Node;
import io.schedext.framework.ImageStateSummary;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cluster's container images, as upstream's cache keeps them for ImageLocality: per image name,
 * its size and the nodes that have it; and per node, the summaries a snapshot's node info carries.
 * Not thread-safe: the cache calls it under its lock.
 */
final class ImageStates {

  private static final class ImageState {
    final long size;
    final Set<String> nodes = new HashSet<>();

    ImageState(long size) {
      this.size = size;
    }
  }

  private final Map<String, ImageState> byName = new HashMap<>();
  // Advanced whenever byName changes (a node's images were added or removed).
  private long version;

  /** The node's images as its status lists them, or null. */
  static List<ContainerImage> images(Node node) {
    return node.getStatus() == null ? null : node.getStatus().getImages();
  }

  /** Advanced on every change: summaries computed at another version may be stale. */
  long version() {
    return version;
  }

  /** Counts {@code node}'s images. */
  void add(Node node) {
    String name = node.getMetadata().getName();
    if (images(node) == null) {
      return;
    }
    for (ContainerImage image : images(node)) {
      if (image.getNames() == null) {
        continue;
      }
      long size = image.getSizeBytes() == null ? 0 : image.getSizeBytes();
      version++;
      for (String imageName : image.getNames()) {
        byName.computeIfAbsent(imageName, k -> new ImageState(size)).nodes.add(name);
      }
    }
  }

  /** Stops counting {@code node}'s images. */
  void remove(Node node) {
    String name = node.getMetadata().getName();
    if (images(node) == null) {
      return;
    }
    for (ContainerImage image : images(node)) {
      if (image.getNames() == null) {
        continue;
      }
      version++;
      for (String imageName : image.getNames()) {
        ImageState s = byName.get(imageName);
        if (s != null) {
          s.nodes.remove(name);
          if (s.nodes.isEmpty()) {
            byName.remove(imageName);
          }
        }
      }
    }
  }

  /**
   * The summaries of {@code node}'s images: each one's size and on how many nodes it is. Shared by
   * every snapshot copy of the node until it changes, so it never changes either: read once per
   * node by every prioritize, it is a compact immutable map with interned keys (ImageLocality
   * interns the pod's image names too), so a lookup is a probe into one array ending on a reference
   * comparison.
   */
  Map<String, ImageStateSummary> summaries(Node node) {
    List<ContainerImage> images = images(node);
    if (images == null || images.isEmpty()) {
      return Map.of();
    }
    Map<String, ImageStateSummary> out = new HashMap<>();
    for (ContainerImage image : images) {
      if (image.getNames() == null) {
        continue;
      }
      for (String imageName : image.getNames()) {
        ImageState s = imageName == null ? null : byName.get(imageName);
        if (s != null) {
          out.putIfAbsent(imageName.intern(), new ImageStateSummary(s.size, s.nodes.size()));
        }
      }
    }
    return Map.copyOf(out);
  }
}

package io.schedext.plugins.imagelocality;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.framework.StateData;
import java.util.ArrayList;
import java.util.List;

/**
 * The normalised image of every init container and regular container of the pod, in that order: one
 * entry per container, so the length is the count that sets the maximum threshold. Image volumes
 * are not counted, as in 1.34 (later upstream releases count them too). Written by ImageLocality's
 * PreScore; never mutated afterwards.
 *
 * @param names the normalised image names
 * @param bits their {@link NodeInfo#imageBit}s, or-ed
 */
record PodImages(String[] names, long bits) implements StateData {

  /** The images of {@code pod}'s init containers and regular containers. */
  static PodImages of(PodInfo pod) {
    PodSpec spec = pod.pod().getSpec();
    List<String> out = new ArrayList<>();
    if (spec != null) {
      add(out, spec.getInitContainers());
      add(out, spec.getContainers());
    }
    String[] names = out.toArray(new String[0]);
    // The nodes' image summaries are keyed by interned names: the lookups then end on a reference
    // comparison.
    long bits = 0;
    for (int i = 0; i < names.length; i++) {
      names[i] = names[i].intern();
      bits |= NodeInfo.imageBit(names[i]);
    }
    return new PodImages(names, bits);
  }

  private static void add(List<String> out, List<Container> containers) {
    if (containers != null) {
      for (Container c : containers) {
        out.add(ImageLocality.normalizedImageName(c.getImage()));
      }
    }
  }

  @Override
  public StateData copy() {
    return this;
  }
}

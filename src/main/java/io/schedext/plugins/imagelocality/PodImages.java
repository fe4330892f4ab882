package io.schedext.plugins.imagelocality;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.schedext.framework.PodInfo;
import io.schedext.framework.StateData;
import java.util.ArrayList;
import java.util.List;

/**
 * The normalised image of every init and regular container of the pod, in that order (one entry per container, so
 * the length is the container count). Written by ImageLocality's PreScore; never mutated afterwards.
 *
 * @param names the normalised image names
 */
record PodImages(String[] names) implements StateData {

  /** The images of {@code pod}'s init and regular containers. */
  static PodImages of(PodInfo pod) {
    PodSpec spec = pod.pod().getSpec();
    List<String> out = new ArrayList<>();
    if (spec != null) {
      add(out, spec.getInitContainers());
      add(out, spec.getContainers());
    }
    return new PodImages(out.toArray(new String[0]));
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

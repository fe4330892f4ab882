package io.schedext.plugins.serviceaffinity;

import io.fabric8.kubernetes.api.model.Service;
import io.schedext.framework.PodInfo;
import io.schedext.framework.StateData;
import io.schedext.kube.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What ServiceAffinity's PreFilter computes for Filter: the services selecting the pod, the
 * same-namespace pods whose labels carry all of the incoming pod's labels (kept up to date by
 * AddPod/RemovePod), and the affinity labels the pod already fixes through its node selector. Only
 * {@link #matchingPods} changes after PreFilter, and only on copies made for simulations.
 */
final class PreFilterState implements StateData {

  /** The services in the pod's namespace whose selector matches the pod, in lister order. */
  final List<Service> services;

  /** The incoming pod's labels as a selector (everything when it has none). */
  final Selector podLabels;

  /** The affinity labels with the value the pod's node selector gives them. */
  final Map<String, String> fixedLabels;

  /** The matching pods, in snapshot order, then in the order AddPod added them. */
  final List<PodInfo> matchingPods;

  PreFilterState(
      List<Service> services,
      Selector podLabels,
      Map<String, String> fixedLabels,
      List<PodInfo> matchingPods) {
    this.services = services;
    this.podLabels = podLabels;
    this.fixedLabels = fixedLabels;
    this.matchingPods = matchingPods;
  }

  @Override
  public PreFilterState copy() {
    return new PreFilterState(services, podLabels, fixedLabels, new ArrayList<>(matchingPods));
  }
}

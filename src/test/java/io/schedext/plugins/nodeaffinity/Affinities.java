package io.schedext.plugins.nodeaffinity;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakePod;
import java.util.ArrayList;
import java.util.List;

/**
 * Small builders for node selector terms, required and preferred node affinity in this package's
 * tests.
 */
final class Affinities {

  private Affinities() {}

  /** A label requirement. */
  static NodeSelectorRequirement expr(String key, String operator, String... values) {
    NodeSelectorRequirement r = new NodeSelectorRequirement();
    r.setKey(key);
    r.setOperator(operator);
    r.setValues(new ArrayList<>(List.of(values)));
    return r;
  }

  /** A {@code metadata.name} field requirement. */
  static NodeSelectorRequirement nameField(String operator, String... values) {
    return field("metadata.name", operator, values);
  }

  /** A field requirement on any key. */
  static NodeSelectorRequirement field(String key, String operator, String... values) {
    return expr(key, operator, values);
  }

  /** A term with only label requirements. */
  static NodeSelectorTerm exprs(NodeSelectorRequirement... exprs) {
    return term(List.of(exprs), List.of());
  }

  /** A term with only field requirements. */
  static NodeSelectorTerm fields(NodeSelectorRequirement... fields) {
    return term(List.of(), List.of(fields));
  }

  /** A term with both kinds of requirements. */
  static NodeSelectorTerm term(
      List<NodeSelectorRequirement> exprs, List<NodeSelectorRequirement> fields) {
    NodeSelectorTerm t = new NodeSelectorTerm();
    t.setMatchExpressions(new ArrayList<>(exprs));
    t.setMatchFields(new ArrayList<>(fields));
    return t;
  }

  /** A node selector ORing the terms. */
  static NodeSelector required(NodeSelectorTerm... terms) {
    NodeSelector s = new NodeSelector();
    s.setNodeSelectorTerms(new ArrayList<>(List.of(terms)));
    return s;
  }

  /** A weighted preferred term. */
  static PreferredSchedulingTerm preferred(int weight, NodeSelectorTerm term) {
    PreferredSchedulingTerm p = new PreferredSchedulingTerm();
    p.setWeight(weight);
    p.setPreference(term);
    return p;
  }

  /** Node affinity with these required terms (null for none) and preferred terms. */
  static NodeAffinity nodeAffinity(NodeSelector required, PreferredSchedulingTerm... preferred) {
    NodeAffinity na = new NodeAffinity();
    na.setRequiredDuringSchedulingIgnoredDuringExecution(required);
    na.setPreferredDuringSchedulingIgnoredDuringExecution(new ArrayList<>(List.of(preferred)));
    return na;
  }

  /** A pod named "p" carrying this node affinity. */
  static PodInfo podWith(NodeAffinity na) {
    Pod pod = MakePod.pod().name("p").obj();
    pod.getSpec().setAffinity(new Affinity());
    pod.getSpec().getAffinity().setNodeAffinity(na);
    return PodInfo.of(pod);
  }

  /** A pod named "p" requiring these terms. */
  static PodInfo podRequiring(NodeSelectorTerm... terms) {
    return podWith(nodeAffinity(required(terms)));
  }

  /** A pod named "p" preferring these terms. */
  static PodInfo podPreferring(PreferredSchedulingTerm... terms) {
    return podWith(nodeAffinity(null, terms));
  }
}

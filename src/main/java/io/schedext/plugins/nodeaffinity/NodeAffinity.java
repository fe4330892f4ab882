package io.schedext.plugins.nodeaffinity;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.schedext.framework.CycleState;
import io.schedext.framework.FilterPlugin;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.Handle;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.NodeScores;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreFilterPlugin;
import io.schedext.framework.PreFilterResult;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ScoreExtensions;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.kube.NodeSelectorTerms;
import io.schedext.kube.RequiredNodeAffinity;
import io.schedext.plugins.Names;
import io.schedext.plugins.helper.Normalize;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Matches the pod's {@code spec.nodeSelector} and required node affinity, plus the
 * scheduler-enforced {@link NodeAffinityArgs#addedAffinity()}, against node labels and names
 * (Filter; PreFilter narrows to the node names the required terms pin); ranks nodes by the summed
 * weights of matching preferred terms (Score). Thread-safe: the compiled added affinity is
 * immutable.
 */
public final class NodeAffinity
    implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions {

  /** The CycleState key of the compiled required affinity, written in PreFilter. */
  static final String PRE_FILTER_STATE_KEY = "PreFilter" + Names.NODE_AFFINITY;

  /** The CycleState key of the compiled preferred terms, written in PreScore. */
  static final String PRE_SCORE_STATE_KEY = "PreScore" + Names.NODE_AFFINITY;

  /** The reason when the node does not match the pod's node selector or required node affinity. */
  public static final String ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";

  /** The reason when the node does not match the scheduler-enforced (added) node affinity. */
  public static final String ERR_REASON_ENFORCED =
      "node(s) didn't match scheduler-enforced node affinity";

  /** The PreFilter reason when every required term pins node names and together they pin none. */
  public static final String ERR_REASON_CONFLICT = "pod affinity terms conflict";

  private static final Status POD_MISMATCH =
      Status.unresolvable(ERR_REASON_POD).withPlugin(Names.NODE_AFFINITY);
  private static final Status ENFORCED_MISMATCH =
      Status.unresolvable(ERR_REASON_ENFORCED).withPlugin(Names.NODE_AFFINITY);
  private static final Status CONFLICT =
      Status.unresolvable(ERR_REASON_CONFLICT).withPlugin(Names.NODE_AFFINITY);
  private static final String NODE_NAME_FIELD = NodeSelectorTerms.NODE_NAME_FIELD;

  private final NodeSelectorTerms addedNodeSelector;
  private final PreferredSchedulingTerms addedPreferredTerms;

  private NodeAffinity(
      NodeSelectorTerms addedNodeSelector, PreferredSchedulingTerms addedPreferredTerms) {
    this.addedNodeSelector = addedNodeSelector;
    this.addedPreferredTerms = addedPreferredTerms;
  }

  /**
   * The pod's compiled node selector and required affinity; never changed by AddPod/RemovePod, so
   * shared.
   */
  record PreFilterState(RequiredNodeAffinity required) implements StateData {
    @Override
    public StateData copy() {
      return this;
    }
  }

  /**
   * The pod's compiled preferred terms, or null when it has none; read-only, so shared by copies.
   */
  record PreScoreState(PreferredSchedulingTerms preferred) implements StateData {
    @Override
    public StateData copy() {
      return this;
    }
  }

  @Override
  public String name() {
    return Names.NODE_AFFINITY;
  }

  /**
   * Skips the Filter when neither the pod nor the args constrain nodes; otherwise compiles the
   * required affinity and, when every required term pins {@code metadata.name} with In, narrows
   * filtering to the union over terms of the names each term allows (an empty union rejects the pod
   * as unresolvable).
   */
  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod) {
    PodSpec spec = pod.pod().getSpec();
    NodeSelector required = requiredAffinity(spec);
    boolean hasNodeSelector =
        spec != null && spec.getNodeSelector() != null && !spec.getNodeSelector().isEmpty();
    if (required == null && addedNodeSelector == null && !hasNodeSelector) {
      return PreFilterResult.of(Status.skip());
    }
    state.write(PRE_FILTER_STATE_KEY, new PreFilterState(RequiredNodeAffinity.of(pod.pod())));
    if (required == null
        || required.getNodeSelectorTerms() == null
        || required.getNodeSelectorTerms().isEmpty()) {
      return PreFilterResult.success();
    }
    Set<String> nodeNames = null;
    for (NodeSelectorTerm term : required.getNodeSelectorTerms()) {
      Set<String> termNames = pinnedNodeNames(term);
      if (termNames == null) {
        // Terms are ORed: one term that does not pin names leaves every node possible.
        return PreFilterResult.success();
      }
      if (nodeNames == null) {
        nodeNames = new HashSet<>();
      }
      nodeNames.addAll(termNames);
    }
    if (nodeNames.isEmpty()) {
      return PreFilterResult.of(CONFLICT);
    }
    return PreFilterResult.nodes(nodeNames);
  }

  /**
   * The intersection of the term's {@code metadata.name In} field values, or null when it has none.
   */
  private static Set<String> pinnedNodeNames(NodeSelectorTerm term) {
    if (term == null || term.getMatchFields() == null) {
      return null;
    }
    Set<String> names = null;
    for (NodeSelectorRequirement r : term.getMatchFields()) {
      if (NODE_NAME_FIELD.equals(r.getKey()) && "In".equals(r.getOperator())) {
        Set<String> values = r.getValues() == null ? Set.of() : new HashSet<>(r.getValues());
        if (names == null) {
          names = new HashSet<>(values);
        } else {
          names.retainAll(values);
        }
      }
    }
    return names;
  }

  /**
   * Rejects the node when it misses the added required affinity, then when it misses the pod's node
   * selector or required affinity (compiled here when PreFilter did not run).
   */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    if (addedNodeSelector != null && !addedNodeSelector.matches(node.name(), node.labels())) {
      return ENFORCED_MISMATCH;
    }
    RequiredNodeAffinity required =
        state.readOrNull(PRE_FILTER_STATE_KEY) instanceof PreFilterState s
            ? s.required()
            : RequiredNodeAffinity.of(pod.pod());
    // Terms that fail to parse simply never match, as upstream keeps it for backwards
    // compatibility.
    return required.matches(node.name(), node.labels()) ? Status.success() : POD_MISMATCH;
  }

  /**
   * Compiles the pod's preferred terms once for Score; Skip when neither the pod nor the args
   * prefer anything, Error when a preferred term does not parse.
   */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    PreferredSchedulingTerms preferred;
    try {
      preferred = podPreferredTerms(pod);
    } catch (IllegalArgumentException e) {
      return Status.error(e.getMessage());
    }
    if (preferred == null && addedPreferredTerms == null) {
      return Status.skip();
    }
    state.write(PRE_SCORE_STATE_KEY, new PreScoreState(preferred));
    return Status.success();
  }

  /** The summed weights of the added and the pod's preferred terms the node matches. */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    long count = 0;
    if (addedPreferredTerms != null) {
      count += addedPreferredTerms.score(node.name(), node.labels());
    }
    PreferredSchedulingTerms preferred;
    if (state.readOrNull(PRE_SCORE_STATE_KEY) instanceof PreScoreState s) {
      preferred = s.preferred();
    } else {
      try {
        preferred = podPreferredTerms(pod);
      } catch (IllegalArgumentException e) {
        throw new FrameworkException(e.getMessage(), e);
      }
    }
    if (preferred != null) {
      count += preferred.score(node.name(), node.labels());
    }
    return count;
  }

  @Override
  public ScoreExtensions scoreExtensions() {
    return this;
  }

  /** Scales the sums so the best node gets 100 (left at 0 when every sum is 0). */
  @Override
  public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
    return Normalize.defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
  }

  private static NodeSelector requiredAffinity(PodSpec spec) {
    Affinity a = spec == null ? null : spec.getAffinity();
    return a == null || a.getNodeAffinity() == null
        ? null
        : a.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
  }

  /** The pod's compiled preferred node affinity, or null when it lists none. */
  private static PreferredSchedulingTerms podPreferredTerms(PodInfo pod) {
    PodSpec spec = pod.pod().getSpec();
    Affinity a = spec == null ? null : spec.getAffinity();
    List<PreferredSchedulingTerm> terms =
        a == null || a.getNodeAffinity() == null
            ? null
            : a.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution();
    if (terms == null || terms.isEmpty()) {
      return null;
    }
    List<String> errors = new ArrayList<>(0);
    PreferredSchedulingTerms compiled = PreferredSchedulingTerms.compile(terms, "", errors);
    if (compiled == null) {
      throw new IllegalArgumentException(PreferredSchedulingTerms.aggregate(errors));
    }
    return compiled;
  }

  /**
   * Builds the plugin from typed args; throws {@link FrameworkException} naming the added-affinity
   * field whose terms do not parse.
   */
  static NodeAffinity of(NodeAffinityArgs args) {
    io.fabric8.kubernetes.api.model.NodeAffinity added = args == null ? null : args.addedAffinity();
    if (added == null) {
      return new NodeAffinity(null, null);
    }
    List<String> errors = new ArrayList<>();
    NodeSelectorTerms required = null;
    NodeSelector ns = added.getRequiredDuringSchedulingIgnoredDuringExecution();
    if (ns != null) {
      List<NodeSelectorTerm> terms =
          ns.getNodeSelectorTerms() == null ? List.of() : ns.getNodeSelectorTerms();
      for (int i = 0; i < terms.size(); i++) {
        for (String e : NodeSelectorTerms.compileTerms(List.of(terms.get(i))).parseErrors()) {
          errors.add(
              "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms["
                  + i
                  + "]: "
                  + e);
        }
      }
      required = NodeSelectorTerms.compile(ns);
    }
    PreferredSchedulingTerms preferred = null;
    List<PreferredSchedulingTerm> pref = added.getPreferredDuringSchedulingIgnoredDuringExecution();
    if (pref != null && !pref.isEmpty()) {
      String path = "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution";
      preferred = PreferredSchedulingTerms.compile(pref, path, errors);
    }
    if (!errors.isEmpty()) {
      throw new FrameworkException(
          "invalid args for plugin "
              + Names.NODE_AFFINITY
              + ": "
              + PreferredSchedulingTerms.aggregate(errors)
              + " (operators must be In, NotIn, Exists, DoesNotExist, Gt or Lt;"
              + " matchFields only In or NotIn with one value)");
    }
    return new NodeAffinity(required, preferred);
  }

  /** The factory registered under {@link Names#NODE_AFFINITY}. */
  public static NodeAffinity create(PluginArgs args, Handle handle) {
    return of(args == null ? null : args.as(NodeAffinityArgs.class));
  }
}

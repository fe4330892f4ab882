package io.schedext.realcluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.ControlPlane.AuditedRequest;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a run left behind, from the API server's own records: the scope's pods and where they are,
 * each node's CPU against its allocatable, and every Binding the extender posted for the scope's
 * pods with the API server's answer (its audit log: 201 bound, 409 conflict: the pod was bound
 * already). A pod bound twice would show two 201s; a double-booked node, more CPU bound than it
 * has.
 *
 * <p>A Binding whose client gave up before the answer (the extender's {@code
 * extender.bind.timeout}) is logged with the code the API server ended it with, 504 and "context
 * canceled", although its write may have landed: a pod bound by such a Binding has none answered
 * 201. It is counted apart ({@link #landedUnanswered}); a pod bound with neither kind of Binding
 * was bound by someone else.
 *
 * @param bound pods with a node
 * @param pending pods without one
 * @param created Bindings answered 201
 * @param conflicts Bindings answered 409
 * @param otherAnswers Bindings answered anything else (by code)
 * @param boundTwice pods with more than one Binding answered 201
 * @param landedUnanswered bound pods without a Binding answered 201 but with one whose answer was
 *     an error other than 409: it landed while its client had given up
 * @param boundWithoutBinding bound pods without any Binding of the extender that can have bound it
 * @param overCommitted nodes whose bound pods request more CPU than the node has, with both figures
 */
record Ledger(
    int bound,
    int pending,
    int created,
    int conflicts,
    Map<Integer, Integer> otherAnswers,
    List<String> boundTwice,
    List<String> landedUnanswered,
    List<String> boundWithoutBinding,
    Map<String, String> overCommitted) {

  private static final Pattern BINDING =
      Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding");

  /** Reads the ledger of {@code w}'s pods and nodes, and of the Bindings {@code user} posted. */
  static Ledger read(ControlPlane cp, Workloads w, String user) {
    List<Pod> pods = w.pods();
    Map<String, Integer> createdPerPod = new HashMap<>();
    Set<String> erred = new HashSet<>();
    int conflicts = 0;
    Map<Integer, Integer> other = new TreeMap<>();
    for (AuditedRequest r : cp.audited(user)) {
      Matcher m = BINDING.matcher(r.uri());
      if (!r.verb().equals("create") || !m.find() || !m.group(1).equals(w.id())) {
        continue;
      }
      if (r.code() == 201) {
        createdPerPod.merge(m.group(2), 1, Integer::sum);
      } else if (r.code() == 409) {
        conflicts++;
      } else {
        other.merge(r.code(), 1, Integer::sum);
        erred.add(m.group(2));
      }
    }
    Map<String, BigDecimal> used = new HashMap<>();
    int bound = 0;
    for (Pod p : pods) {
      String node = p.getSpec().getNodeName();
      if (node == null || node.isEmpty()) {
        continue;
      }
      bound++;
      for (var c : p.getSpec().getContainers()) {
        Quantity cpu = c.getResources().getRequests().get("cpu");
        if (cpu != null) {
          used.merge(node, cpu.getNumericalAmount(), BigDecimal::add);
        }
      }
    }
    Map<String, String> over = new TreeMap<>();
    for (Node n : cp.client().nodes().withLabel(Workloads.SCOPE, w.id()).list().getItems()) {
      BigDecimal allocatable = n.getStatus().getAllocatable().get("cpu").getNumericalAmount();
      BigDecimal u = used.getOrDefault(n.getMetadata().getName(), BigDecimal.ZERO);
      if (u.compareTo(allocatable) > 0) {
        over.put(n.getMetadata().getName(), u.toPlainString() + " of " + allocatable + " CPU");
      }
    }
    List<String> withoutCreated =
        pods.stream()
            .filter(p -> p.getSpec().getNodeName() != null)
            .map(p -> p.getMetadata().getName())
            .filter(n -> !createdPerPod.containsKey(n))
            .sorted()
            .toList();
    return new Ledger(
        bound,
        pods.size() - bound,
        createdPerPod.values().stream().mapToInt(Integer::intValue).sum(),
        conflicts,
        other,
        createdPerPod.entrySet().stream()
            .filter(e -> e.getValue() > 1)
            .map(Map.Entry::getKey)
            .sorted()
            .toList(),
        withoutCreated.stream().filter(erred::contains).toList(),
        withoutCreated.stream().filter(n -> !erred.contains(n)).toList(),
        over);
  }

  /** One line of figures, for the run's report. */
  String summary() {
    return String.format(
        Locale.ROOT,
        "bound %d, pending %d; Bindings: %d created, %d conflicts (409)%s; bound twice %d;"
            + " over-committed nodes %d",
        bound,
        pending,
        created,
        conflicts,
        otherAnswers.isEmpty()
            ? ""
            : ", " + otherAnswers + " unanswered (of which " + landedUnanswered.size() + " landed)",
        boundTwice.size(),
        overCommitted.size());
  }
}

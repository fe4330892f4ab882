package io.schedext.kube;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Compiled {@code v1.NodeSelector} terms, ORed, as component-helpers' lazy-error node selector: a
 * term that fails to parse never matches but does not stop the others. Immutable and thread-safe.
 */
public final class NodeSelectorTerms {

  /** Field key usable in {@code matchFields}. */
  public static final String NODE_NAME_FIELD = "metadata.name";

  private final Term[] terms;
  private final List<String> parseErrors;

  private NodeSelectorTerms(List<Term> terms, List<String> parseErrors) {
    this.terms = terms.toArray(new Term[0]);
    this.parseErrors = List.copyOf(parseErrors);
  }

  /** Compiles a node selector; a null selector yields no terms (matches nothing). */
  public static NodeSelectorTerms compile(NodeSelector selector) {
    List<NodeSelectorTerm> raw =
        selector == null || selector.getNodeSelectorTerms() == null
            ? List.of()
            : selector.getNodeSelectorTerms();
    return compileTerms(raw);
  }

  /** Compiles a list of terms; errors are kept and the faulty terms never match. */
  public static NodeSelectorTerms compileTerms(List<NodeSelectorTerm> raw) {
    List<Term> terms = new ArrayList<>(raw.size());
    List<String> errors = new ArrayList<>();
    for (NodeSelectorTerm t : raw) {
      try {
        terms.add(Term.compile(t));
      } catch (IllegalArgumentException e) {
        errors.add(e.getMessage());
        terms.add(Term.NEVER);
      }
    }
    return new NodeSelectorTerms(terms, errors);
  }

  /** True when some term matches the node's name and labels. */
  public boolean matches(String nodeName, Map<String, String> nodeLabels) {
    Map<String, String> labels = nodeLabels == null ? Map.of() : nodeLabels;
    for (Term t : terms) {
      if (t.matches(nodeName, labels)) {
        return true;
      }
    }
    return false;
  }

  /** The errors met while compiling, one per faulty term. */
  public List<String> parseErrors() {
    return parseErrors;
  }

  /** The number of terms, faulty ones included. */
  public int size() {
    return terms.length;
  }

  /** The compiled term at {@code i}. */
  public Term term(int i) {
    return terms[i];
  }

  /**
   * One term: label requirements ANDed with field requirements. A term with neither matches
   * nothing.
   *
   * @param labelRequirements requirements on node labels (null when the term has no
   *     matchExpressions)
   * @param fieldRequirements requirements on node fields (null when the term has no matchFields)
   */
  public record Term(
      List<Requirement> labelRequirements, List<FieldRequirement> fieldRequirements) {

    static final Term NEVER = new Term(null, null);

    static Term compile(NodeSelectorTerm t) {
      List<Requirement> labels = null;
      List<FieldRequirement> fields = null;
      if (t.getMatchExpressions() != null && !t.getMatchExpressions().isEmpty()) {
        labels = new ArrayList<>();
        for (NodeSelectorRequirement r : t.getMatchExpressions()) {
          labels.add(Requirement.of(r.getKey(), labelOperator(r.getOperator()), r.getValues()));
        }
      }
      if (t.getMatchFields() != null && !t.getMatchFields().isEmpty()) {
        fields = new ArrayList<>();
        for (NodeSelectorRequirement r : t.getMatchFields()) {
          fields.add(FieldRequirement.of(r));
        }
      }
      return new Term(
          labels == null ? null : Collections.unmodifiableList(labels),
          fields == null ? null : Collections.unmodifiableList(fields));
    }

    /** True when the node satisfies every requirement of this term. */
    public boolean matches(String nodeName, Map<String, String> labels) {
      if (labelRequirements == null && fieldRequirements == null) {
        return false;
      }
      // Index loops: run per node per term, where an iterator (not always scalar-replaced) would be
      // garbage.
      if (labelRequirements != null) {
        for (int i = 0, n = labelRequirements.size(); i < n; i++) {
          if (!labelRequirements.get(i).matches(labels)) {
            return false;
          }
        }
      }
      if (fieldRequirements != null && nodeName != null && !nodeName.isEmpty()) {
        for (int i = 0, n = fieldRequirements.size(); i < n; i++) {
          if (!fieldRequirements.get(i).matches(nodeName)) {
            return false;
          }
        }
      }
      return true;
    }

    private static Requirement.Operator labelOperator(String op) {
      return switch (op == null ? "" : op) {
        case "In" -> Requirement.Operator.IN;
        case "NotIn" -> Requirement.Operator.NOT_IN;
        case "Exists" -> Requirement.Operator.EXISTS;
        case "DoesNotExist" -> Requirement.Operator.DOES_NOT_EXIST;
        case "Gt" -> Requirement.Operator.GREATER_THAN;
        case "Lt" -> Requirement.Operator.LESS_THAN;
        default ->
            throw new IllegalArgumentException(
                "\"" + op + "\" is not a valid node selector operator");
      };
    }
  }

  /**
   * A requirement on a node field; only {@code metadata.name} has a value, any other key reads as
   * empty.
   *
   * @param key the field key
   * @param in true for In, false for NotIn
   * @param value the single value
   */
  public record FieldRequirement(String key, boolean in, String value) {

    static FieldRequirement of(NodeSelectorRequirement r) {
      String op = r.getOperator() == null ? "" : r.getOperator();
      boolean in;
      if (op.equals("In")) {
        in = true;
      } else if (op.equals("NotIn")) {
        in = false;
      } else {
        throw new IllegalArgumentException(
            "\"" + op + "\" is not a valid node field selector operator");
      }
      List<String> values = r.getValues() == null ? List.of() : r.getValues();
      if (values.size() != 1) {
        throw new IllegalArgumentException(
            "unexpected number of value ("
                + values.size()
                + ") for node field selector operator \""
                + op
                + "\"");
      }
      return new FieldRequirement(r.getKey(), in, values.get(0));
    }

    /** True when the node with this name satisfies the requirement. */
    public boolean matches(String nodeName) {
      String actual = NODE_NAME_FIELD.equals(key) ? nodeName : "";
      return in == actual.equals(value);
    }
  }
}

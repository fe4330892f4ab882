package io.schedext.kube;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.function.Predicate;

/** Taint and toleration matching, as the core v1 helpers ({@code ToleratesTaint}). */
public final class Taints {

  public static final String EFFECT_NO_SCHEDULE = "NoSchedule";
  public static final String EFFECT_PREFER_NO_SCHEDULE = "PreferNoSchedule";
  public static final String EFFECT_NO_EXECUTE = "NoExecute";
  public static final String UNSCHEDULABLE_TAINT_KEY = "node.kubernetes.io/unschedulable";

  private Taints() {}

  /** True when the toleration tolerates the taint (effect, key, then operator and value). */
  public static boolean tolerates(Toleration t, Taint taint) {
    String effect = t.getEffect();
    if (effect != null && !effect.isEmpty() && !effect.equals(taint.getEffect())) {
      return false;
    }
    String key = t.getKey();
    if (key != null && !key.isEmpty() && !key.equals(taint.getKey())) {
      return false;
    }
    String op = t.getOperator() == null ? "" : t.getOperator();
    return switch (op) {
      case "", "Equal" -> nullToEmpty(t.getValue()).equals(nullToEmpty(taint.getValue()));
      case "Exists" -> true;
      default -> false;
    };
  }

  /** True when any toleration in the list tolerates the taint. */
  public static boolean anyTolerates(List<Toleration> tolerations, Taint taint) {
    if (tolerations == null) {
      return false;
    }
    for (int i = 0; i < tolerations.size(); i++) {
      if (tolerates(tolerations.get(i), taint)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The first of {@code taints} that {@code tolerations} do not tolerate, or null: {@link
   * #findUntolerated(List, List, Predicate)} for taints already chosen by effect (such as {@code
   * NodeInfo.noScheduleTaints()}).
   */
  public static Taint findUntolerated(List<Taint> taints, List<Toleration> tolerations) {
    for (int i = 0, n = taints.size(); i < n; i++) {
      Taint taint = taints.get(i);
      if (!anyTolerates(tolerations, taint)) {
        return taint;
      }
    }
    return null;
  }

  /** Returns the first taint accepted by {@code filter} that no toleration tolerates, or null. */
  public static Taint findUntolerated(
      List<Taint> taints, List<Toleration> tolerations, Predicate<Taint> filter) {
    if (taints == null) {
      return null;
    }
    for (int i = 0, n = taints.size(); i < n; i++) {
      Taint taint = taints.get(i);
      if (filter.test(taint) && !anyTolerates(tolerations, taint)) {
        return taint;
      }
    }
    return null;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}

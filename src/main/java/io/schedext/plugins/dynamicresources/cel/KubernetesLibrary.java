package io.schedext.plugins.dynamicresources.cel;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kubernetes CEL libraries device selectors use, as the API server's base environment declares
 * them: quantities ({@code quantity()}, {@code isQuantity()}, {@code compareTo}, {@code add}, ...),
 * semantic versions ({@code semver()}, {@code isSemver()}, {@code major()}, {@code isLessThan},
 * ...), regular expressions ({@code find}, {@code findAll}) and lists ({@code isSorted}, {@code
 * sum}, {@code min}, {@code max}, {@code indexOf}, {@code lastIndexOf}). Declarations for the
 * compiler and bindings for the runtime; stateless.
 */
final class KubernetesLibrary {

  /** The type of capacities and of {@code quantity()}. */
  static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");

  /** The type of version attributes and of {@code semver()}. */
  static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");

  private static final TypeParamType T = TypeParamType.create("T");

  private KubernetesLibrary() {}

  static List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> d = new ArrayList<>();
    // Quantity.
    d.add(fn("quantity", global("string_to_quantity", QUANTITY, SimpleType.STRING)));
    d.add(fn("isQuantity", global("is_quantity_string", SimpleType.BOOL, SimpleType.STRING)));
    d.add(fn("sign", member("quantity_sign", SimpleType.INT, QUANTITY)));
    d.add(fn("isInteger", member("quantity_is_integer", SimpleType.BOOL, QUANTITY)));
    d.add(fn("asInteger", member("quantity_get_int", SimpleType.INT, QUANTITY)));
    d.add(fn("asApproximateFloat", member("quantity_get_float", SimpleType.DOUBLE, QUANTITY)));
    d.add(
        fn(
            "add",
            member("quantity_add", QUANTITY, QUANTITY, QUANTITY),
            member("quantity_add_int", QUANTITY, QUANTITY, SimpleType.INT)));
    d.add(
        fn(
            "sub",
            member("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
            member("quantity_sub_int", QUANTITY, QUANTITY, SimpleType.INT)));
    d.add(
        fn(
            "isLessThan",
            member("quantity_less", SimpleType.BOOL, QUANTITY, QUANTITY),
            member("semver_less", SimpleType.BOOL, SEMVER, SEMVER)));
    d.add(
        fn(
            "isGreaterThan",
            member("quantity_greater", SimpleType.BOOL, QUANTITY, QUANTITY),
            member("semver_greater", SimpleType.BOOL, SEMVER, SEMVER)));
    d.add(
        fn(
            "compareTo",
            member("quantity_compare_to", SimpleType.INT, QUANTITY, QUANTITY),
            member("semver_compare_to", SimpleType.INT, SEMVER, SEMVER)));
    // Semver.
    d.add(
        fn(
            "semver",
            global("string_to_semver", SEMVER, SimpleType.STRING),
            global("string_bool_to_semver_normalize", SEMVER, SimpleType.STRING, SimpleType.BOOL)));
    d.add(
        fn(
            "isSemver",
            global("is_semver_string", SimpleType.BOOL, SimpleType.STRING),
            global(
                "is_semver_string_bool_normalize",
                SimpleType.BOOL,
                SimpleType.STRING,
                SimpleType.BOOL)));
    d.add(fn("major", member("semver_major", SimpleType.INT, SEMVER)));
    d.add(fn("minor", member("semver_minor", SimpleType.INT, SEMVER)));
    d.add(fn("patch", member("semver_patch", SimpleType.INT, SEMVER)));
    // Regex.
    d.add(
        fn(
            "find",
            member("string_find_string", SimpleType.STRING, SimpleType.STRING, SimpleType.STRING)));
    d.add(
        fn(
            "findAll",
            member(
                "string_find_all_string",
                ListType.create(SimpleType.STRING),
                SimpleType.STRING,
                SimpleType.STRING),
            member(
                "string_find_all_string_int",
                ListType.create(SimpleType.STRING),
                SimpleType.STRING,
                SimpleType.STRING,
                SimpleType.INT)));
    // Lists.
    ListType listT = ListType.create(T);
    d.add(fn("isSorted", member("list_is_sorted", SimpleType.BOOL, listT)));
    d.add(fn("sum", member("list_sum", T, listT)));
    d.add(fn("max", member("list_max", T, listT)));
    d.add(fn("min", member("list_min", T, listT)));
    d.add(fn("indexOf", member("list_index_of", SimpleType.INT, listT, T)));
    d.add(fn("lastIndexOf", member("list_last_index_of", SimpleType.INT, listT, T)));
    return d;
  }

  static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> b = new ArrayList<>();
    b.add(CelFunctionBinding.from("string_to_quantity", String.class, KubernetesLibrary::quantity));
    b.add(CelFunctionBinding.from("is_quantity_string", String.class, KubeQuantity::isQuantity));
    b.add(CelFunctionBinding.from("quantity_sign", KubeQuantity.class, KubeQuantity::sign));
    b.add(
        CelFunctionBinding.from(
            "quantity_is_integer", KubeQuantity.class, KubeQuantity::isInteger));
    b.add(
        CelFunctionBinding.from(
            "quantity_get_int",
            KubeQuantity.class,
            q -> {
              try {
                return q.asInteger();
              } catch (IllegalArgumentException e) {
                throw new CelEvaluationException(e.getMessage());
              }
            }));
    b.add(
        CelFunctionBinding.from(
            "quantity_get_float", KubeQuantity.class, KubeQuantity::asApproximateFloat));
    b.add(
        CelFunctionBinding.from(
            "quantity_add", KubeQuantity.class, KubeQuantity.class, KubeQuantity::add));
    b.add(
        CelFunctionBinding.from(
            "quantity_add_int",
            KubeQuantity.class,
            Long.class,
            (q, i) -> q.add(KubeQuantity.ofDecimal(BigDecimal.valueOf(i)))));
    b.add(
        CelFunctionBinding.from(
            "quantity_sub", KubeQuantity.class, KubeQuantity.class, KubeQuantity::sub));
    b.add(
        CelFunctionBinding.from(
            "quantity_sub_int",
            KubeQuantity.class,
            Long.class,
            (q, i) -> q.sub(KubeQuantity.ofDecimal(BigDecimal.valueOf(i)))));
    b.add(
        CelFunctionBinding.from(
            "quantity_less", KubeQuantity.class, KubeQuantity.class, (a, c) -> a.compareTo(c) < 0));
    b.add(
        CelFunctionBinding.from(
            "quantity_greater",
            KubeQuantity.class,
            KubeQuantity.class,
            (a, c) -> a.compareTo(c) > 0));
    b.add(
        CelFunctionBinding.from(
            "quantity_compare_to",
            KubeQuantity.class,
            KubeQuantity.class,
            (a, c) -> (long) Integer.signum(a.compareTo(c))));
    b.add(CelFunctionBinding.from("string_to_semver", String.class, KubernetesLibrary::semver));
    b.add(CelFunctionBinding.from("is_semver_string", String.class, KubeSemver::isSemver));
    b.add(
        CelFunctionBinding.from(
            "string_bool_to_semver_normalize",
            String.class,
            Boolean.class,
            (s, normalize) -> normalize ? semverNormalized(s) : semver(s)));
    b.add(
        CelFunctionBinding.from(
            "is_semver_string_bool_normalize",
            String.class,
            Boolean.class,
            (s, normalize) -> {
              try {
                if (normalize) {
                  KubeSemver.parseNormalized(s);
                } else {
                  KubeSemver.parse(s);
                }
                return true;
              } catch (IllegalArgumentException e) {
                return false;
              }
            }));
    b.add(CelFunctionBinding.from("semver_major", KubeSemver.class, KubeSemver::major));
    b.add(CelFunctionBinding.from("semver_minor", KubeSemver.class, KubeSemver::minor));
    b.add(CelFunctionBinding.from("semver_patch", KubeSemver.class, KubeSemver::patch));
    b.add(
        CelFunctionBinding.from(
            "semver_less", KubeSemver.class, KubeSemver.class, (a, c) -> a.compareTo(c) < 0));
    b.add(
        CelFunctionBinding.from(
            "semver_greater", KubeSemver.class, KubeSemver.class, (a, c) -> a.compareTo(c) > 0));
    b.add(
        CelFunctionBinding.from(
            "semver_compare_to",
            KubeSemver.class,
            KubeSemver.class,
            (a, c) -> (long) Integer.signum(a.compareTo(c))));
    b.add(
        CelFunctionBinding.from(
            "string_find_string", String.class, String.class, KubernetesLibrary::find));
    b.add(
        CelFunctionBinding.from(
            "string_find_all_string", String.class, String.class, (s, re) -> findAll(s, re, -1)));
    b.add(
        CelFunctionBinding.from(
            "string_find_all_string_int",
            List.of(String.class, String.class, Long.class),
            args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
    b.add(CelFunctionBinding.from("list_is_sorted", List.class, KubernetesLibrary::isSorted));
    b.add(CelFunctionBinding.from("list_sum", List.class, KubernetesLibrary::sum));
    b.add(CelFunctionBinding.from("list_max", List.class, l -> extreme(l, 1, "max")));
    b.add(CelFunctionBinding.from("list_min", List.class, l -> extreme(l, -1, "min")));
    b.add(
        CelFunctionBinding.from(
            "list_index_of", List.class, Object.class, (l, v) -> (long) l.indexOf(v)));
    b.add(
        CelFunctionBinding.from(
            "list_last_index_of", List.class, Object.class, (l, v) -> (long) l.lastIndexOf(v)));
    return b;
  }

  private static CelFunctionDecl fn(String name, CelOverloadDecl... overloads) {
    return CelFunctionDecl.newFunctionDeclaration(name, overloads);
  }

  private static CelOverloadDecl global(String id, CelType result, CelType... params) {
    return CelOverloadDecl.newGlobalOverload(id, result, params);
  }

  private static CelOverloadDecl member(String id, CelType result, CelType... params) {
    return CelOverloadDecl.newMemberOverload(id, result, params);
  }

  private static KubeQuantity quantity(String s) throws CelEvaluationException {
    try {
      return KubeQuantity.parse(s);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  private static KubeSemver semver(String s) throws CelEvaluationException {
    try {
      return KubeSemver.parse(s);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException("could not parse semver: " + e.getMessage());
    }
  }

  private static KubeSemver semverNormalized(String s) throws CelEvaluationException {
    try {
      return KubeSemver.parseNormalized(s);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException("could not parse semver: " + e.getMessage());
    }
  }

  private static Pattern pattern(String re) throws CelEvaluationException {
    try {
      return Pattern.compile(re);
    } catch (PatternSyntaxException e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  private static String find(String s, String re) throws CelEvaluationException {
    Matcher m = pattern(re).matcher(s);
    return m.find() ? m.group() : "";
  }

  private static List<String> findAll(String s, String re, long limit)
      throws CelEvaluationException {
    Matcher m = pattern(re).matcher(s);
    List<String> out = new ArrayList<>();
    while ((limit < 0 || out.size() < limit) && m.find()) {
      out.add(m.group());
    }
    return out;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static boolean isSorted(List l) throws CelEvaluationException {
    for (int i = 1; i < l.size(); i++) {
      if (compare(l.get(i - 1), l.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  @SuppressWarnings("rawtypes")
  private static Object sum(List l) throws CelEvaluationException {
    if (l.isEmpty()) {
      return 0L;
    }
    Object acc = l.get(0);
    for (int i = 1; i < l.size(); i++) {
      Object v = l.get(i);
      if (acc instanceof Long a && v instanceof Long c) {
        acc = Math.addExact(a, c);
      } else if (acc instanceof Double a && v instanceof Double c) {
        acc = a + c;
      } else {
        throw new CelEvaluationException("no such overload");
      }
    }
    return acc;
  }

  @SuppressWarnings("rawtypes")
  private static Object extreme(List l, int sign, String name) throws CelEvaluationException {
    if (l.isEmpty()) {
      throw new CelEvaluationException(name + " of empty list");
    }
    Object best = l.get(0);
    for (int i = 1; i < l.size(); i++) {
      if (Integer.signum(compare(l.get(i), best)) == sign) {
        best = l.get(i);
      }
    }
    return best;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) throws CelEvaluationException {
    if (a instanceof Comparable ca && b != null && a.getClass() == b.getClass()) {
      return ca.compareTo(b);
    }
    throw new CelEvaluationException("no such overload");
  }
}

package io.schedext.kube;

import java.util.regex.Pattern;

/** Syntax checks for Kubernetes qualified names and label values (apimachinery validation). */
public final class QualifiedNames {

  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private QualifiedNames() {}

  /**
   * True when {@code s} is an optional DNS subdomain prefix and a slash, then a name of at most 63
   * characters.
   */
  public static boolean isQualifiedName(String s) {
    if (s == null || s.isEmpty()) {
      return false;
    }
    String name = s;
    int slash = s.indexOf('/');
    if (slash >= 0) {
      if (s.indexOf('/', slash + 1) >= 0) {
        return false;
      }
      String prefix = s.substring(0, slash);
      name = s.substring(slash + 1);
      if (prefix.isEmpty()
          || prefix.length() > 253
          || !DNS1123_SUBDOMAIN.matcher(prefix).matches()) {
        return false;
      }
    }
    return !name.isEmpty() && name.length() <= 63 && NAME.matcher(name).matches();
  }

  /** True when {@code s} is a valid label value (empty allowed). */
  public static boolean isLabelValue(String s) {
    return s != null && (s.isEmpty() || (s.length() <= 63 && NAME.matcher(s).matches()));
  }
}

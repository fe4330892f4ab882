package io.schedext.plugins.dynamicresources.cel;

import java.util.ArrayList;
import java.util.List;

/**
 * A semantic version (semver 2.0.0) as a CEL value ({@code kubernetes.Semver}), parsed strictly as
 * blang/semver's {@code Parse} does: {@code MAJOR.MINOR.PATCH}, numbers without leading zeros, an
 * optional pre-release and build. Ordered by precedence (the build is ignored), and equal when the
 * precedence is. Immutable.
 */
public final class KubeSemver implements Comparable<KubeSemver> {

  private final long major;
  private final long minor;
  private final long patch;
  private final List<String> pre;
  private final String text;

  private KubeSemver(long major, long minor, long patch, List<String> pre, String text) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.pre = pre;
    this.text = text;
  }

  /**
   * Parses {@code text}; throws {@link IllegalArgumentException} with blang/semver's message when
   * it is not a version.
   */
  public static KubeSemver parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("Version string empty");
    }
    String rest = text;
    int plus = rest.indexOf('+');
    String build = null;
    if (plus >= 0) {
      build = rest.substring(plus + 1);
      rest = rest.substring(0, plus);
    }
    int dash = rest.indexOf('-');
    String preText = null;
    if (dash >= 0) {
      preText = rest.substring(dash + 1);
      rest = rest.substring(0, dash);
    }
    String[] parts = rest.split("\\.", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("No Major.Minor.Patch elements found");
    }
    long major = number(parts[0], "Major");
    long minor = number(parts[1], "Minor");
    long patch = number(parts[2], "Patch");
    List<String> pre = new ArrayList<>();
    if (preText != null) {
      for (String p : preText.split("\\.", -1)) {
        if (p.isEmpty()) {
          throw new IllegalArgumentException("Prerelease is empty");
        }
        if (!p.chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || c == '-')) {
          throw new IllegalArgumentException(
              "Invalid character(s) found in prerelease \"" + p + "\"");
        }
        if (p.chars().allMatch(Character::isDigit) && p.length() > 1 && p.charAt(0) == '0') {
          throw new IllegalArgumentException(
              "Numeric PreRelease version must not contain leading zeroes \"" + p + "\"");
        }
        pre.add(p);
      }
    }
    if (build != null) {
      for (String b : build.split("\\.", -1)) {
        if (b.isEmpty()) {
          throw new IllegalArgumentException("Build meta data is empty");
        }
        if (!b.chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || c == '-')) {
          throw new IllegalArgumentException(
              "Invalid character(s) found in build meta data \"" + b + "\"");
        }
      }
    }
    return new KubeSemver(major, minor, patch, List.copyOf(pre), text);
  }

  /**
   * Parses {@code text} after normalising it as the Kubernetes semver library's {@code normalize}
   * option does: a leading {@code v} dropped, missing minor and patch numbers filled with 0 and
   * leading zeros of the numbers dropped ({@code v01.2} is {@code 1.2.0}).
   */
  public static KubeSemver parseNormalized(String text) {
    String s = text.startsWith("v") ? text.substring(1) : text;
    int cut = s.length();
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == '-' || s.charAt(i) == '+') {
        cut = i;
        break;
      }
    }
    String core = s.substring(0, cut);
    String rest = s.substring(cut);
    String[] parts = core.split("\\.", -1);
    if (parts.length > 3) {
      return parse(text);
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      String p = i < parts.length ? parts[i] : "0";
      if (p.length() > 1 && p.chars().allMatch(Character::isDigit)) {
        p = p.replaceFirst("^0+(?=.)", "");
      }
      if (i > 0) {
        b.append('.');
      }
      b.append(p);
    }
    return parse(b.append(rest).toString());
  }

  /** Whether {@code text} parses as a version. */
  public static boolean isSemver(String text) {
    try {
      parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static long number(String s, String what) {
    if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException(
          "Invalid character(s) found in " + what.toLowerCase() + " number \"" + s + "\"");
    }
    if (s.length() > 1 && s.charAt(0) == '0') {
      throw new IllegalArgumentException(
          what + " number must not contain leading zeroes \"" + s + "\"");
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid character(s) found in " + what.toLowerCase() + " number \"" + s + "\"");
    }
  }

  long major() {
    return major;
  }

  long minor() {
    return minor;
  }

  long patch() {
    return patch;
  }

  @Override
  public int compareTo(KubeSemver o) {
    int c = Long.compare(major, o.major);
    if (c == 0) {
      c = Long.compare(minor, o.minor);
    }
    if (c == 0) {
      c = Long.compare(patch, o.patch);
    }
    if (c != 0) {
      return c;
    }
    if (pre.isEmpty() || o.pre.isEmpty()) {
      // A version without pre-release outranks one with.
      return Boolean.compare(pre.isEmpty(), o.pre.isEmpty());
    }
    for (int i = 0; i < Math.min(pre.size(), o.pre.size()); i++) {
      c = comparePart(pre.get(i), o.pre.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(pre.size(), o.pre.size());
  }

  private static int comparePart(String a, String b) {
    boolean na = a.chars().allMatch(Character::isDigit);
    boolean nb = b.chars().allMatch(Character::isDigit);
    if (na && nb) {
      return Long.compare(Long.parseLong(a), Long.parseLong(b));
    }
    if (na != nb) {
      return na ? -1 : 1;
    }
    return Integer.signum(a.compareTo(b));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KubeSemver s && compareTo(s) == 0;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(major) * 31 * 31
        + Long.hashCode(minor) * 31
        + Long.hashCode(patch)
        + pre.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}

package io.schedext.plugins.podtopologyspread;

/**
 * The two domains with the fewest matching pods of one constraint, as upstream's {@code
 * criticalPaths}: slot 0 always holds the global minimum; slot 1 is at least as large but not
 * necessarily the second minimum. Two slots suffice because preemption only ever changes the pods
 * of one node (hence one domain) per copy of the state. Mutable; not thread-safe (only
 * AddPod/RemovePod, which own their copy of the state, change it).
 */
final class CriticalPaths {

  /** The count of an empty slot (upstream's {@code math.MaxInt32}). */
  static final int EMPTY = Integer.MAX_VALUE;

  private final String[] values = {"", ""};
  private final int[] nums = {EMPTY, EMPTY};

  /** A copy that changes independently of this one. */
  CriticalPaths copy() {
    CriticalPaths c = new CriticalPaths();
    c.values[0] = values[0];
    c.values[1] = values[1];
    c.nums[0] = nums[0];
    c.nums[1] = nums[1];
    return c;
  }

  /** Records that domain {@code value} now holds {@code num} matching pods. */
  void update(String value, int num) {
    int i = value.equals(values[0]) ? 0 : value.equals(values[1]) ? 1 : -1;
    if (i >= 0) {
      nums[i] = num;
      if (nums[0] > nums[1]) {
        swap();
      }
    } else if (num < nums[0]) {
      values[1] = values[0];
      nums[1] = nums[0];
      values[0] = value;
      nums[0] = num;
    } else if (num < nums[1]) {
      values[1] = value;
      nums[1] = num;
    }
  }

  private void swap() {
    String v = values[0];
    values[0] = values[1];
    values[1] = v;
    int n = nums[0];
    nums[0] = nums[1];
    nums[1] = n;
  }

  /** The global minimum count ({@link #EMPTY} when no domain is eligible). */
  int min() {
    return nums[0];
  }

  /** The domain in slot {@code i} (0 or 1). */
  String value(int i) {
    return values[i];
  }

  /** The count in slot {@code i} (0 or 1). */
  int num(int i) {
    return nums[i];
  }

  @Override
  public String toString() {
    return "[{" + values[0] + " " + nums[0] + "} {" + values[1] + " " + nums[1] + "}]";
  }
}

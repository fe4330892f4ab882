package io.schedext.framework;

import java.util.List;
import java.util.Objects;

/**
 * The immutable result of running a plugin: a {@link Code}, the reasons (upstream's text, character
 * for character), the cause of an {@link Code#ERROR}, and the name of the plugin that produced it.
 * "Does not fit" is a Status, never an exception. Thread-safe.
 */
public final class Status {

  private static final Status SUCCESS = new Status(Code.SUCCESS, List.of(), null, null);
  private static final Status SKIP = new Status(Code.SKIP, List.of(), null, null);

  private final Code code;
  private final List<String> reasons;
  private final Throwable cause;
  private final String plugin;

  private Status(Code code, List<String> reasons, Throwable cause, String plugin) {
    this.code = Objects.requireNonNull(code);
    this.reasons = reasons;
    this.cause = cause;
    this.plugin = plugin;
  }

  /** The shared success status. */
  public static Status success() {
    return SUCCESS;
  }

  /** The shared skip status. */
  public static Status skip() {
    return SKIP;
  }

  /** A status with the given code and reasons. */
  public static Status of(Code code, String... reasons) {
    if (code == Code.SUCCESS && reasons.length == 0) {
      return SUCCESS;
    }
    return new Status(code, List.of(reasons), null, null);
  }

  /** A status with the given code and reasons. */
  public static Status of(Code code, List<String> reasons) {
    return new Status(code, List.copyOf(reasons), null, null);
  }

  /** An Unschedulable status: the pod does not fit, preemption may help. */
  public static Status unschedulable(String... reasons) {
    return of(Code.UNSCHEDULABLE, reasons);
  }

  /** An UnschedulableAndUnresolvable status: the pod does not fit and preemption cannot help. */
  public static Status unresolvable(String... reasons) {
    return of(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reasons);
  }

  /** An Error status with a message. */
  public static Status error(String message) {
    return new Status(Code.ERROR, List.of(message), null, null);
  }

  /** An Error status caused by {@code cause}; its message becomes the reason. */
  public static Status error(Throwable cause) {
    String msg = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    return new Status(Code.ERROR, List.of(msg), cause, null);
  }

  /** A Wait status (Permit only). */
  public static Status waiting(String... reasons) {
    return of(Code.WAIT, reasons);
  }

  /** This status attributed to {@code pluginName}; returns {@code this} when it already is. */
  public Status withPlugin(String pluginName) {
    if (Objects.equals(plugin, pluginName)) {
      return this;
    }
    return new Status(code, reasons, cause, pluginName);
  }

  /** This status with another code, keeping reasons, cause and plugin. */
  public Status withCode(Code newCode) {
    return newCode == code ? this : new Status(newCode, reasons, cause, plugin);
  }

  /** This status with {@code prefix} put before each reason. */
  public Status withPrefix(String prefix) {
    return new Status(code, reasons.stream().map(r -> prefix + r).toList(), cause, plugin);
  }

  /** The code. */
  public Code code() {
    return code;
  }

  /** The reasons, in order; empty for success. */
  public List<String> reasons() {
    return reasons;
  }

  /** The reasons joined by ", ", as upstream's {@code Status.Message()}. */
  public String message() {
    return reasons.size() == 1 ? reasons.get(0) : String.join(", ", reasons);
  }

  /** The cause of an error status, or null. */
  public Throwable cause() {
    return cause;
  }

  /** The plugin that produced this status, or null. */
  public String plugin() {
    return plugin;
  }

  /** True for Success. */
  public boolean isSuccess() {
    return code == Code.SUCCESS;
  }

  /** True for Unschedulable or UnschedulableAndUnresolvable. */
  public boolean isRejected() {
    return code == Code.UNSCHEDULABLE || code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
  }

  /** True for Error. */
  public boolean isError() {
    return code == Code.ERROR;
  }

  /** True for Skip. */
  public boolean isSkip() {
    return code == Code.SKIP;
  }

  /** True for Wait. */
  public boolean isWait() {
    return code == Code.WAIT;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Status s
        && code == s.code
        && reasons.equals(s.reasons)
        && Objects.equals(plugin, s.plugin);
  }

  @Override
  public int hashCode() {
    return Objects.hash(code, reasons, plugin);
  }

  @Override
  public String toString() {
    return code
        + (plugin == null ? "" : "(" + plugin + ")")
        + (reasons.isEmpty() ? "" : ": " + message());
  }
}

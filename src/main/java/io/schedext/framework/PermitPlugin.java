package io.schedext.framework;

import java.time.Duration;

/** Approves, rejects or delays the binding of a reserved pod. */
public interface PermitPlugin extends Plugin {

  /**
   * The verdict: Success, a rejection, Error, or Wait with a timeout after which the pod is
   * rejected.
   *
   * @param status the verdict
   * @param timeout how long to wait when the verdict is Wait (capped at 15 minutes)
   */
  record Result(Status status, Duration timeout) {

    /** An immediate verdict without waiting. */
    public static Result of(Status status) {
      return new Result(status, Duration.ZERO);
    }

    /** A Wait verdict. */
    public static Result waitFor(Duration timeout) {
      return new Result(Status.waiting(), timeout);
    }
  }

  /** Decides whether the pod may proceed to binding on {@code nodeName}. */
  Result permit(CycleState state, PodInfo pod, String nodeName);
}

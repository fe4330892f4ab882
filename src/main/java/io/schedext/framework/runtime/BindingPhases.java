package io.schedext.framework.runtime;

import io.schedext.framework.BindPlugin;
import io.schedext.framework.CycleState;
import io.schedext.framework.ExtensionPoint;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PermitPlugin;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PostBindPlugin;
import io.schedext.framework.PreBindPlugin;
import io.schedext.framework.ReservePlugin;
import io.schedext.framework.Status;
import io.schedext.framework.WaitingPod;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * The extension points of one profile's binding cycle, as upstream's runtime runs them: Reserve and
 * Unreserve, Permit and the wait on it, PreBind, Bind and PostBind, with one catch policy for what
 * plugins throw ({@link #guard}). {@link Framework} exposes them. Thread-safe.
 */
final class BindingPhases {

  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(BindingPhases.class);

  private final String profileName;
  private final ReservePlugin[] reservePlugins;
  private final PermitPlugin[] permitPlugins;
  private final PreBindPlugin[] preBindPlugins;
  private final BindPlugin[] bindPlugins;
  private final PostBindPlugin[] postBindPlugins;
  private final FrameworkServices services;

  /** The binding-cycle plugins of {@code profileName}, by extension point. */
  BindingPhases(
      String profileName,
      ReservePlugin[] reservePlugins,
      PermitPlugin[] permitPlugins,
      PreBindPlugin[] preBindPlugins,
      BindPlugin[] bindPlugins,
      PostBindPlugin[] postBindPlugins,
      FrameworkServices services) {
    this.profileName = profileName;
    this.reservePlugins = reservePlugins;
    this.permitPlugins = permitPlugins;
    this.preBindPlugins = preBindPlugins;
    this.bindPlugins = bindPlugins;
    this.postBindPlugins = postBindPlugins;
    this.services = services;
  }

  /** Runs Reserve plugins in order; a rejection keeps its code, any other failure is an Error. */
  Status runReservePluginsReserve(CycleState state, PodInfo pod, String nodeName) {
    long start = System.nanoTime();
    Status out = Status.success();
    for (ReservePlugin pl : reservePlugins) {
      Status s = guard(pl.name(), "Reserve", () -> pl.reserve(state, pod, nodeName));
      if (!s.isSuccess()) {
        out =
            s.isRejected()
                ? s.withPlugin(pl.name())
                : wrapped(s, "running Reserve plugin \"" + pl.name() + "\": ");
        break;
      }
    }
    services
        .metrics()
        .extensionPoint(profileName, ExtensionPoint.RESERVE, out.code(), System.nanoTime() - start);
    return out;
  }

  /**
   * Runs Unreserve of every Reserve plugin in reverse order; failures are swallowed (it must be
   * idempotent).
   */
  void runReservePluginsUnreserve(CycleState state, PodInfo pod, String nodeName) {
    for (int i = reservePlugins.length - 1; i >= 0; i--) {
      ReservePlugin pl = reservePlugins[i];
      // Unreserve cannot fail the cycle; the cache forgets the pod regardless.
      guard(
          pl.name(),
          "Unreserve",
          () -> {
            pl.unreserve(state, pod, nodeName);
            return Status.success();
          });
    }
  }

  /**
   * Runs Permit plugins. A rejection or Error returns at once; when some plugin says Wait (and none
   * rejects) the pod becomes a {@link WaitingPod} and Wait is returned; call {@link #waitOnPermit}
   * next.
   */
  Status runPermitPlugins(CycleState state, PodInfo pod, String nodeName) {
    long start = System.nanoTime();
    Map<String, Duration> waits = new LinkedHashMap<>();
    Status out = null;
    for (PermitPlugin pl : permitPlugins) {
      PermitPlugin.Result[] result = new PermitPlugin.Result[1];
      Status thrown =
          guard(
              pl.name(),
              "Permit",
              () -> {
                result[0] = pl.permit(state, pod, nodeName);
                return Status.success();
              });
      PermitPlugin.Result r =
          thrown.isSuccess() && result[0] != null ? result[0] : PermitPlugin.Result.of(thrown);
      Status s = r.status() == null ? Status.success() : r.status();
      if (s.isSuccess()) {
        continue;
      }
      if (s.isRejected()) {
        out = s.withPlugin(pl.name());
        break;
      }
      if (s.isWait()) {
        Duration t = r.timeout() == null ? Duration.ZERO : r.timeout();
        waits.put(
            pl.name(), t.compareTo(Framework.MAX_PERMIT_WAIT) > 0 ? Framework.MAX_PERMIT_WAIT : t);
        continue;
      }
      out = wrapped(s, "running Permit plugin \"" + pl.name() + "\": ").withPlugin(pl.name());
      break;
    }
    if (out == null && !waits.isEmpty()) {
      HeldPod wp = new HeldPod(pod, nodeName, services.clock().instant());
      services.waitingPods().add(wp);
      wp.startTimers(waits, services.timers());
      out =
          Status.waiting(
              "one or more plugins asked to wait and no plugin rejected pod \""
                  + pod.name()
                  + "\"");
    }
    if (out == null) {
      out = Status.success();
    }
    services
        .metrics()
        .extensionPoint(profileName, ExtensionPoint.PERMIT, out.code(), System.nanoTime() - start);
    return out;
  }

  /**
   * Blocks until the waiting pod (if any) is allowed or rejected; Success when it was not waiting.
   */
  Status waitOnPermit(PodInfo pod) {
    HeldPod wp = services.waitingPods().held(pod.uid());
    if (wp == null) {
      return Status.success();
    }
    try {
      Status s = wp.outcome().get();
      if (s.isSuccess() || s.isRejected()) {
        return s;
      }
      Status err = Status.error("waiting on permit for pod: " + s.message());
      return s.plugin() == null ? err : err.withPlugin(s.plugin());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Status.error("interrupted while waiting on permit for pod " + pod.key());
    } catch (ExecutionException e) {
      return Status.error(e.getCause());
    } finally {
      services.waitingPods().remove(pod.uid());
    }
  }

  /**
   * Runs PreBind plugins in order; the first failure stops (rejections keep their code, others
   * become Error).
   */
  Status runPreBindPlugins(CycleState state, PodInfo pod, String nodeName) {
    long start = System.nanoTime();
    Status out = Status.success();
    for (PreBindPlugin pl : preBindPlugins) {
      Status s = guard(pl.name(), "PreBind", () -> pl.preBind(state, pod, nodeName));
      if (!s.isSuccess()) {
        out =
            s.isRejected()
                ? s.withPlugin(pl.name())
                : wrapped(s, "running PreBind plugin \"" + pl.name() + "\": ");
        break;
      }
    }
    services
        .metrics()
        .extensionPoint(
            profileName, ExtensionPoint.PRE_BIND, out.code(), System.nanoTime() - start);
    return out;
  }

  /** Runs Bind plugins until one does not Skip; Skip when there are none or all skip. */
  Status runBindPlugins(CycleState state, PodInfo pod, String nodeName) {
    long start = System.nanoTime();
    Status out = Status.skip();
    for (BindPlugin pl : bindPlugins) {
      Status s = guard(pl.name(), "Bind", () -> pl.bind(state, pod, nodeName));
      if (s.isSkip()) {
        continue;
      }
      if (!s.isSuccess()) {
        out =
            s.isRejected()
                ? s.withPlugin(pl.name())
                : wrapped(s, "running Bind plugin \"" + pl.name() + "\": ");
      } else {
        out = s;
      }
      break;
    }
    services
        .metrics()
        .extensionPoint(profileName, ExtensionPoint.BIND, out.code(), System.nanoTime() - start);
    return out;
  }

  /** Runs every PostBind plugin; failures are ignored. */
  void runPostBindPlugins(CycleState state, PodInfo pod, String nodeName) {
    for (PostBindPlugin pl : postBindPlugins) {
      // PostBind is informational: a failure is logged and changes nothing.
      guard(
          pl.name(),
          "PostBind",
          () -> {
            pl.postBind(state, pod, nodeName);
            return Status.success();
          });
    }
  }

  /**
   * The one catch policy of the binding cycle (Reserve, Unreserve, Permit, PreBind, Bind,
   * PostBind): whatever a plugin throws becomes an Error status carrying the exception, so the
   * caller always reaches Unreserve and the cache's forget. The runtime's own exceptions are
   * expected faults and logged in one line; anything else (a NullPointerException in an SPI plugin,
   * say) is a bug in the plugin and logged with its stack trace.
   */
  private static Status guard(String plugin, String point, Supplier<Status> call) {
    try {
      Status s = call.get();
      return s == null ? Status.success() : s;
    } catch (FrameworkException | IllegalArgumentException e) {
      log.debug("{} plugin \"{}\" failed: {}", point, plugin, e.getMessage());
      return Status.error(e);
    } catch (RuntimeException e) {
      log.warn("{} plugin \"{}\" threw", point, plugin, e);
      return Status.error(e);
    }
  }

  /** An Error status with {@code prefix} before the message of {@code s}, keeping its cause. */
  private static Status wrapped(Status s, String prefix) {
    return s.cause() == null
        ? Status.error(prefix + s.message())
        : Status.error(new FrameworkException(prefix + s.message(), s.cause()));
  }
}

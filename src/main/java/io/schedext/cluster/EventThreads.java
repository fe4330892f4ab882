package io.schedext.cluster;

import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads the API client reads and hands on watch events with — its Vert.x event loops and its
 * task executor — at the lowest Java priority, so that on a busy machine the scheduling calls get
 * the CPUs first and a burst of watch events is applied a little later instead of slowing every
 * call during it. The cache's event gate already holds the cache updates back while a call is
 * answered; these threads do the client's own share of each event (reading the frame, decoding, the
 * informer's store), which nothing can hold back without leaving the watch unread.
 *
 * <p>The threads start at normal priority, so the initial lists (while the service is not ready and
 * no call needs the CPUs) are read at full speed, and drop to the lowest once the cluster source
 * has synced ({@link #yieldToCalls()}); relists after that happen at the lowest priority while the
 * calls go on.
 *
 * <p>The JVM maps Java priorities to the operating system's only when started with {@link
 * #JVM_OPTIONS} (the container image's {@code JAVA_TOOL_OPTIONS} has them): priority 1 becomes nice
 * 10, and priorities above normal stay at nice 0 whether or not the process may raise priorities.
 * Without them the priority is ignored and the threads compete with the calls as equals; the log
 * says which applies.
 */
public final class EventThreads {

  private static final Logger log = LoggerFactory.getLogger(EventThreads.class);

  /** The Java priority of the client's event threads. */
  public static final int PRIORITY = Thread.MIN_PRIORITY;

  /** The nice value {@link #JVM_OPTIONS} give {@link #PRIORITY}. */
  public static final int NICE = 10;

  /**
   * JVM options under which {@link #PRIORITY} takes effect as nice {@link #NICE}, and nothing else
   * changes.
   */
  public static final List<String> JVM_OPTIONS =
      List.of(
          "-XX:ThreadPriorityPolicy=1",
          "-XX:JavaPriority1_To_OSPriority=" + NICE,
          "-XX:JavaPriority6_To_OSPriority=0",
          "-XX:JavaPriority7_To_OSPriority=0",
          "-XX:JavaPriority8_To_OSPriority=0",
          "-XX:JavaPriority9_To_OSPriority=0",
          "-XX:JavaPriority10_To_OSPriority=0");

  /**
   * The client's threads alive now (event loops and task threads), to lower when the source has
   * synced.
   */
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

  private volatile Vertx vertx;
  private volatile boolean yielding;

  /**
   * Threads for one client ({@link #apply}), at normal priority until told to {@link
   * #yieldToCalls()}.
   */
  public EventThreads() {}

  /**
   * Gives {@code builder} a Vert.x instance and a task executor of this instance's threads (which
   * runs a watch event's steps in turn on one thread, {@link SerialHandoff}); both are closed with
   * the client. Once per instance.
   */
  public synchronized KubernetesClientBuilder apply(KubernetesClientBuilder builder) {
    if (vertx != null) {
      throw new IllegalStateException("EventThreads serve one client");
    }
    Vertx vertx = newVertx(threads);
    ExecutorService tasks = taskExecutor(this);
    Executor inTurn = new SerialHandoff(tasks);
    this.vertx = vertx;
    if (yielding) {
      threads.forEach(EventThreads::deprioritise);
    }
    return builder
        .withHttpClientFactory(new VertxHttpClientFactory(vertx))
        .withTaskExecutorSupplier(
            new KubernetesClientBuilder.ExecutorSupplier() {
              @Override
              public Executor get() {
                return inTurn;
              }

              @Override
              public void onClose(Executor executor) {
                tasks.shutdownNow();
                vertx.close();
              }
            });
  }

  /**
   * Lowers every thread of the client, now and later ones, to {@link #PRIORITY}; reports the effect
   * once.
   */
  public synchronized void yieldToCalls() {
    if (yielding) {
      return;
    }
    yielding = true;
    threads.forEach(EventThreads::deprioritise);
    if (vertx != null) {
      // Read the nice value on an event loop itself: /proc/thread-self is the reading thread's.
      vertx.nettyEventLoopGroup().next().execute(() -> report(niceOfCurrentThread()));
    }
  }

  /** The Vert.x instance of the client, null before {@link #apply}. */
  Vertx vertx() {
    return vertx;
  }

  /** Whether {@link #yieldToCalls()} was called. */
  public boolean yielding() {
    return yielding;
  }

  /**
   * Seconds an event-loop task may run before Vert.x logs it as blocking. fabric8 decodes a whole
   * list response on the event loop (50,000 pods: about a second alone, more while the JIT competes
   * at start, several at nice 10 while calls run during a relist); Vert.x's default, 2 s, would
   * report that as a blocked thread.
   */
  static final long MAX_EVENT_LOOP_TASK_SECONDS = 10;

  /**
   * A Vert.x instance as fabric8 makes its own (no file caching, daemon threads), allowed {@link
   * #MAX_EVENT_LOOP_TASK_SECONDS} per event-loop task; its event loops are added to {@code
   * threads}.
   */
  static Vertx newVertx(Set<Thread> threads) {
    VertxOptions options =
        new VertxOptions()
            .setFileSystemOptions(
                new FileSystemOptions()
                    .setFileCachingEnabled(false)
                    .setClassPathResolvingEnabled(false))
            .setUseDaemonThread(true)
            .setMaxEventLoopExecuteTime(MAX_EVENT_LOOP_TASK_SECONDS)
            .setMaxEventLoopExecuteTimeUnit(TimeUnit.SECONDS);
    // As fabric8: Vert.x's own DNS resolver is not used; the JDK's resolves the API server's name.
    String previous = System.getProperty("vertx.disableDnsResolver");
    System.setProperty("vertx.disableDnsResolver", "true");
    Vertx vertx;
    try {
      vertx = Vertx.vertx(options);
    } finally {
      if (previous == null) {
        System.clearProperty("vertx.disableDnsResolver");
      } else {
        System.setProperty("vertx.disableDnsResolver", previous);
      }
    }
    List<Future<?>> started = new ArrayList<>();
    for (EventExecutor loop : vertx.nettyEventLoopGroup()) {
      started.add(loop.submit(() -> threads.add(Thread.currentThread())));
    }
    for (Future<?> f : started) {
      f.awaitUninterruptibly();
    }
    return vertx;
  }

  /**
   * A cached pool, as fabric8's default, of daemon threads that lower themselves once {@code owner}
   * yields.
   */
  static ExecutorService taskExecutor(EventThreads owner) {
    AtomicInteger n = new AtomicInteger();
    return new ThreadPoolExecutor(
        0,
        Integer.MAX_VALUE,
        60,
        TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        r -> {
          Thread[] self = new Thread[1];
          self[0] =
              new Thread(
                  () -> {
                    try {
                      r.run();
                    } finally {
                      owner.threads.remove(self[0]);
                    }
                  },
                  "kube-client-" + n.incrementAndGet());
          self[0].setDaemon(true);
          owner.threads.add(self[0]);
          if (owner.yielding) {
            deprioritise(self[0]);
          }
          return self[0];
        });
  }

  static void deprioritise(Thread t) {
    t.setPriority(PRIORITY);
  }

  /**
   * {@code handler} run at normal priority: the cache handlers take the cache's lock, which a
   * scheduling call needs to refresh its snapshot, and a lock holder at nice 10 preempted by busier
   * threads would keep the call waiting (priority inversion: measured at 1,000 nodes, the quiet p99
   * went from 0.7 to 3.1 ms). The handlers only run between calls (the event gate), so raising them
   * costs the calls nothing; two system calls per event.
   */
  static <T> ResourceEventHandler<T> atNormalPriority(ResourceEventHandler<T> handler) {
    return new ForwardingHandler<>(handler) {
      @Override
      public void onAdd(T obj) {
        int was = raise();
        try {
          super.onAdd(obj);
        } finally {
          restore(was);
        }
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        int was = raise();
        try {
          super.onUpdate(oldObj, newObj);
        } finally {
          restore(was);
        }
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        int was = raise();
        try {
          super.onDelete(obj, deletedFinalStateUnknown);
        } finally {
          restore(was);
        }
      }
    };
  }

  private static int raise() {
    Thread t = Thread.currentThread();
    int was = t.getPriority();
    if (was < Thread.NORM_PRIORITY) {
      t.setPriority(Thread.NORM_PRIORITY);
    }
    return was;
  }

  private static void restore(int was) {
    if (was < Thread.NORM_PRIORITY) {
      Thread.currentThread().setPriority(was);
    }
  }

  private static void report(OptionalInt nice) {
    OptionalInt process = nice(Path.of("/proc/self/stat"));
    if (nice.isEmpty() || process.isEmpty()) {
      log.info(
          "API client threads run at Java priority {}; nice values cannot be read here", PRIORITY);
    } else if (nice.getAsInt() > process.getAsInt()) {
      log.info(
          "API client threads run at nice {} (the process at {}): scheduling calls get the CPUs first during "
              + "watch bursts",
          nice.getAsInt(),
          process.getAsInt());
    } else {
      log.warn(
          "API client threads run at nice {}, as the scheduling calls: the JVM ignores thread priorities "
              + "without {} (the container image sets them), so bursts of watch events compete with the calls for "
              + "the CPUs",
          nice.getAsInt(),
          String.join(" ", JVM_OPTIONS));
    }
  }

  /**
   * The calling thread's nice value from {@code /proc/thread-self/stat}, when the system has it.
   */
  static OptionalInt niceOfCurrentThread() {
    return nice(Path.of("/proc/thread-self/stat"));
  }

  /** The nice value in a {@code /proc} stat file, when the system has it. */
  private static OptionalInt nice(Path stat) {
    try {
      String text = Files.readString(stat);
      // Fields after the command name (which may hold spaces), from field 3 on; nice is field 19.
      String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
      return OptionalInt.of(Integer.parseInt(f[19 - 3]));
    } catch (IOException | RuntimeException e) {
      return OptionalInt.empty();
    }
  }
}

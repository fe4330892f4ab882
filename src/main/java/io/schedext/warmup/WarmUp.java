package io.schedext.warmup;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.cache.SchedulerCache;
import io.schedext.cache.Snapshot;
import io.schedext.cluster.ClusterSource;
import io.schedext.extender.EndpointRef;
import io.schedext.extender.ExtenderMetrics;
import io.schedext.extender.SeparateVerbs;
import io.schedext.extender.WireCodec;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ReplyBuffer;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.runtime.Framework;
import io.schedext.framework.runtime.Frameworks;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the filter and prioritize path on the live cluster before readiness reports UP, so that the
 * first calls kube-scheduler makes do not run in the interpreter. HotSpot interprets a method until
 * it has been called a few hundred times and optimises it after thousands: measured with 5,000
 * nodes, the first call after ready took 240 ms, the next ten 30–55 ms and the next fifty still two
 * to four times the steady state, so a thousand calls after ready had a p99 five to six times the
 * warm one (docs/performance.md, "Warm-up before ready").
 *
 * <p>Once the cluster source is ready, {@code pairs} filter-then-prioritize calls are made for a
 * few pending pods, by name: every other pair over every node of the live cache's snapshot, the
 * others over the nodes kube-scheduler sends with its default {@code percentageOfNodesToScore}, in
 * its order ({@link KubeSchedulerCalls#sampled}). The pods are copies of pods already placed in the
 * cluster, made pending again, so that the calls take the branches real pods take (their Services'
 * default spreading, their affinities, the nodes they do not fit); code compiled on the shapes of
 * made-up pods is thrown away and compiled again at the first real ones. A cluster with no pod yet
 * gets synthetic ones (one container, with or without requests). Each body is encoded, decoded by
 * the request codec, answered by the same service and plugin code as a request, and the reply
 * encoded. The shapes the compiler profiles are therefore the cluster's own nodes and the requests'
 * own code. What the calls change stays private: the frameworks are a private instance of every
 * profile over services of their own (their metrics go to a registry nobody reads, the waiting pods
 * map is theirs, they cannot bind or write volumes), and the services remember pods in their own
 * seen pods ({@link SeparateVerbs}); every {@link #PAIRS_PER_INSTANCE} pairs a new {@link Instance}
 * takes over, with new pods, so that the first-call branches live services take are compiled too.
 * The live cache is only read, through snapshots (the node infos' memos, keyed by a pod's scoring
 * inputs, fill as for any call). As kube-scheduler binds each pod it places, a real call finds a
 * node or two changed since the one before; the sampled calls see the same, on copies of nodes with
 * earlier warm-up pods placed on them ({@link #place}).
 *
 * <p>Then come {@code smallPairs} pairs over {@link #SMALL_PAIR_NODES} nodes each. HotSpot
 * optimises a method without loops after some thousands of calls, so what runs once per call (the
 * HTTP server, the endpoint, decoding the pod, the verbs' own steps) was still being compiled
 * during kube-scheduler's first few thousand calls after a few hundred large pairs; the small ones
 * take it there for a fraction of their cost.
 *
 * <p>When the service serves plain HTTP, the pairs are posted to it ({@link
 * #start(InetSocketAddress, String)}), on a connection kept alive as kube-scheduler's: an
 * in-process call never reaches the HTTP server, the servlet container's pipeline and the endpoint,
 * which were a sixth of the cold round's compile time. They go to the current instance's endpoint
 * ({@link #endpoint()}), under a path prefix of this warm-up's own, unguessable ({@link
 * #pathPrefix()}), which answers them with that instance's private services and frameworks, on the
 * snapshots this warm-up gives it ({@link #snapshot()}). Should a call over HTTP fail, the rest are
 * made in process.
 *
 * <p>After each pair, the cluster source runs its own side of those pods ({@link
 * ClusterSource#readWatchEvents}): for the Kubernetes source, the pod's watch events (created,
 * bound, being deleted, deleted) decoded by the client's serialization and read as the cache reads
 * them, then dropped. In a cold loop round the watch's decoders were a large part of what the
 * optimising compiler did.
 *
 * <p>Readiness waits for the warm-up ({@link #finished()}); the verbs do not (a call that comes
 * early is answered, only slower). A warm-up that fails is logged and no longer held against
 * readiness. With no nodes there is nothing to warm up on: it finishes at once.
 */
public final class WarmUp {

  private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

  /**
   * The most pods taken in turn (copies of the cluster's or synthetic ones), so that no call sees
   * the pod of the call before it.
   */
  static final int PODS = 4;

  /**
   * The pods the warm-up's own {@link SeenPods} keeps: fewer than {@link #PODS}, so that each
   * filter call finds its pod gone, as a new pod's first call does, and the prioritize after it
   * finds the pod kept. Keeping all of them, the warm-up's filter calls found their pods kept, and
   * the compiled filter path met a pod it did not know at the first live call and was thrown away.
   */
  static final int KEPT_PODS = PODS / 2;

  /**
   * Times the source's pod events are run per pair ({@link ClusterSource#readWatchEvents}; four
   * events for the Kubernetes source): two events per scheduled pod and two more when it goes, but
   * each is decoded in a fraction of a call's time, and the decoders are compiled only after a few
   * thousand events. Per large pair; the small pairs run none. Where fewer large pairs run ({@link
   * #largePairs}), so do fewer events: bringing as many as the configured pairs would at 5,000
   * nodes took the warm-up from 7.2 to 8.5 s, and start to ready from 23.4 to 25.0 s, listing an
   * API server.
   */
  static final int EVENTS_PER_PAIR = 5;

  /** The binder of the warm-up's frameworks: filter and prioritize never bind. */
  public static final PodBinder NO_BINDS =
      (pod, node) -> {
        throw new FrameworkException("the warm-up's frameworks bind no pod");
      };

  /**
   * The nodes a small pair names ({@link #small}): as few as kube-scheduler sends when its filter
   * left few, so that the call's own work, not its nodes', makes its cost.
   */
  static final int SMALL_PAIR_NODES = 8;

  /** The root of every warm-up's path prefix ({@link #pathPrefix()}). */
  static final String PATH_ROOT = "/warm-up/";

  /** How long a call over HTTP may wait for its reply (a first call runs in the interpreter). */
  static final int HTTP_TIMEOUT_MILLIS = 60_000;

  /** How often the warm-up looks whether the cluster source is ready. */
  private static final long READY_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /**
   * The compilers count as done once they compile less than {@link #QUIET_MILLIS} over this long: a
   * tenth of one compiler thread.
   */
  static final long QUIET_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  /** See {@link #QUIET_WINDOW_NANOS}. */
  static final long QUIET_MILLIS = 25;

  private final int pairs;
  private final int smallPairs;
  private final ClusterSource source;
  private final SchedulerCache cache;
  private final WireCodec codec;
  private final SeparateVerbs.Factory verbs;
  private final Supplier<Frameworks> newFrameworks;
  private final LongSupplier nanoTime;
  private final Compilers compilers;
  private final Runnable collectGarbage;
  private final ExtenderMetrics metrics;
  private final String pathPrefix;
  private final EndpointRef endpoint = new EndpointRef();
  private volatile boolean overHttpEndpoint;
  private volatile Instance instance;
  private volatile Supplier<Snapshot> pairSnapshots;
  private volatile InetSocketAddress server;
  private volatile String contextPath = "";
  private volatile boolean started;
  private volatile int overHttp;
  private volatile int planned;
  private volatile int done;
  private volatile boolean waitingForCompilers;
  private volatile boolean finished;
  private volatile boolean closed;

  /**
   * A warm-up of {@code pairs} filter and prioritize pairs over the private instances of every
   * profile {@code frameworks} gives, one per {@link Instance}, {@code source} and {@code cache}
   * read only; finished at once when {@code pairs} is 0. {@code metrics} are the private
   * frameworks' own, never the live ones. After the calls it waits for {@code compilers} ({@link
   * #awaitCompilers}); then {@code collectGarbage} runs (in the service, {@link System#gc()}):
   * loading the cluster and the warm-up leave hundreds of megabytes of garbage in the old
   * generation, which the parallel collector would otherwise take out in a stop of half a second or
   * more at some later time, while kube-scheduler waits on a call. Before ready nobody waits on it.
   */
  public WarmUp(
      int pairs,
      int smallPairs,
      ClusterSource source,
      SchedulerCache cache,
      SeparateVerbs.Factory verbs,
      Supplier<Frameworks> frameworks,
      ExtenderMetrics metrics,
      LongSupplier nanoTime,
      Compilers compilers,
      Runnable collectGarbage) {
    if (pairs < 0 || smallPairs < 0) {
      throw new IllegalArgumentException(
          "warm-up calls must not be negative: " + pairs + ", " + smallPairs);
    }
    this.pairs = pairs;
    this.smallPairs = smallPairs;
    this.planned = pairs + smallPairs;
    this.source = source;
    this.cache = cache;
    this.codec = verbs.codec();
    this.verbs = verbs;
    this.newFrameworks = frameworks;
    this.nanoTime = nanoTime;
    this.compilers = compilers;
    this.collectGarbage = collectGarbage;
    this.metrics = metrics;
    this.pathPrefix = PATH_ROOT + randomHex(16);
    this.pairSnapshots = cache::snapshot;
    this.instance = newInstance(0);
    this.finished = pairs + smallPairs == 0;
  }

  /**
   * Pairs answered by one {@link Instance} before the next takes over. A new one costs about a
   * large call (its frameworks' running totals are summed over every node again): with one every 32
   * pairs the warm-up at 5,000 nodes took 7.2–8.8 s instead of 3.0–3.8 s.
   */
  static final int PAIRS_PER_INSTANCE = 200;

  /**
   * What answers the warm-up's calls for {@link #PAIRS_PER_INSTANCE} pairs: new frameworks for
   * every profile, with services of their own (their {@link SeenPods}, their PreFilter hand-off), a
   * new endpoint when the calls go over HTTP (its own node name indexes), and new pods to place
   * ({@link WarmUpPods#pendingLike}).
   *
   * <p>The live frameworks and services meet kube-scheduler's first call empty: no running totals
   * summed, no pod remembered, no name index built, a pod no interner and no node memo has seen.
   * One private instance, full after its first calls, took none of those branches while the
   * compiler profiled it, so the code compiled on it had none: at the first live call it was thrown
   * away (the filter service, the per-node filter loop, the prioritize service) and compiled again
   * during the calls kube-scheduler waits on. Each instance takes those branches again
   * (docs/performance.md, "A new private instance every 200 pairs").
   *
   * @param number the instance's number, from 0
   * @param frameworks the instance's frameworks, one per profile
   * @param filter its filter service
   * @param prioritize its prioritize service
   */
  record Instance(int number, SeparateVerbs verbs) {

    /** Its frameworks, one per profile. */
    Frameworks frameworks() {
      return verbs.frameworks();
    }
  }

  /** Instance {@code number}, new in everything it holds. */
  private Instance newInstance(int number) {
    return new Instance(number, verbs.create(newFrameworks.get(), metrics, KEPT_PODS, nanoTime));
  }

  /** Starts instance {@code number}, with its endpoint when the calls go over HTTP. */
  private Instance renew(int number) {
    Instance next = newInstance(number);
    instance = next;
    if (overHttpEndpoint) {
      endpoint.set(next.verbs().endpoint(this::snapshot, pathPrefix));
    }
    return next;
  }

  /**
   * Has the calls over HTTP answered by an endpoint of each instance's verbs under {@link
   * #pathPrefix()}, from the current instance on; {@link #endpoint()} hands requests to it.
   */
  public void answerOverHttp() {
    overHttpEndpoint = true;
    endpoint.set(instance.verbs().endpoint(this::snapshot, pathPrefix));
  }

  /** The endpoint answering the warm-up's calls over HTTP: the current instance's. */
  public EndpointRef endpoint() {
    return endpoint;
  }

  /**
   * Starts the warm-up on a daemon thread of its own, making its calls in process (unless {@link
   * #start(InetSocketAddress, String)} was called): it waits for the cluster source to be ready,
   * then runs. Nothing happens when there is nothing to do, or when it was started before.
   */
  public synchronized void start() {
    if (finished || started) {
      return;
    }
    started = true;
    Thread t = new Thread(this::awaitSourceAndRun, "warm-up");
    t.setDaemon(true);
    t.start();
  }

  /**
   * As {@link #start()}, but the calls are posted to the service at {@code server}, whose servlet
   * context path is {@code contextPath} (empty for the root), under {@link #pathPrefix()}.
   */
  public synchronized void start(InetSocketAddress server, String contextPath) {
    this.server = server;
    this.contextPath = contextPath == null ? "" : contextPath;
    start();
  }

  /**
   * The path, after the servlet context path, under which the endpoint answering this warm-up's
   * calls over HTTP is mapped: {@link #PATH_ROOT} and 128 random bits, so that no one else can call
   * it.
   */
  public String pathPrefix() {
    return pathPrefix;
  }

  /**
   * The snapshot of the cache the current pair is answered on: the live one, or for a sampled pair
   * one with the warm-up's placed pods ({@link #place}). The endpoint of the calls over HTTP takes
   * its calls' snapshots here.
   */
  Snapshot snapshot() {
    return pairSnapshots.get();
  }

  /**
   * The current instance's verbs (their own pods and PreFilter hand-off, the warm-up's metrics).
   */
  SeparateVerbs verbs() {
    return instance.verbs();
  }

  /** The current instance's frameworks: a private instance of every profile. */
  Frameworks frameworks() {
    return instance.frameworks();
  }

  /** The metrics of the warm-up's services and frameworks, which nobody reads. */
  ExtenderMetrics metrics() {
    return metrics;
  }

  /** Marshals the warm-up's watch events (the source decodes them with its own). */
  private static final KubernetesSerialization EVENTS = new KubernetesSerialization();

  /**
   * Has the source read the watch events of {@code pod} ({@link WarmUpEvents#podLife}: created,
   * bound to {@code node}, being deleted, deleted), {@link #EVENTS_PER_PAIR} times over, then those
   * of other kinds ({@link WarmUpEvents#otherKinds}) once; nothing for a source without watches. In
   * a cold loop round the watch's decoders were a large part of what the optimising compiler did.
   */
  private void readEvents(Pod pod, NodeInfo node) {
    if (!source.watches()) {
      return;
    }
    source.readWatchEvents(WarmUpEvents.podLife(EVENTS, pod, node.name()), EVENTS_PER_PAIR);
    // Once: what matters for them is that their path has been taken before it is compiled, and a
    // large cluster's node is a long text to decode.
    source.readWatchEvents(
        WarmUpEvents.otherKinds(EVENTS, pod.getMetadata().getNamespace(), node.node()), 1);
  }

  private static String randomHex(int bytes) {
    byte[] b = new byte[bytes];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** Pairs posted over HTTP so far (the rest were made in process). */
  public int pairsOverHttp() {
    return overHttp;
  }

  /** Stops a warm-up still waiting for the source or running, after its current call. */
  public void close() {
    closed = true;
  }

  /** Whether the warm-up is over: every call made, or given up (which it logs). */
  public boolean finished() {
    return finished;
  }

  /** Filter and prioritize pairs made so far. */
  public int done() {
    return done;
  }

  /** Why readiness waits for the warm-up, or null once it is over. */
  public String progress() {
    if (finished) {
      return null;
    }
    return waitingForCompilers
        ? "warming up the request path: the compilers are still compiling what "
            + done
            + " filter and prioritize pairs ran"
        : "warming up the request path: "
            + done
            + " of "
            + planned
            + " filter and prioritize pairs";
  }

  /**
   * Filter and prioritize pairs planned, small ones included: as configured until the warm-up knows
   * the cluster's size, then as many as it runs ({@link #largePairs}).
   */
  public int pairs() {
    return planned;
  }

  private void awaitSourceAndRun() {
    while (!source.isReady()) {
      if (closed) {
        return;
      }
      LockSupport.parkNanos(READY_POLL_NANOS);
    }
    run();
  }

  /** Runs every pair now, on this thread, whether or not the source is ready; then finished. */
  void run() {
    long start = nanoTime.getAsLong();
    try {
      Snapshot first = cache.snapshot();
      if (first.size() == 0) {
        log.info("Warm-up skipped: the cluster has no node to filter yet");
        return;
      }
      int large = largePairs(pairs, first.size());
      planned = large + smallPairs;
      List<String> profiles = new ArrayList<>();
      instance.frameworks().all().forEach(f -> profiles.add(f.profileName()));
      Instance current = instance;
      // Each instance's pods, and one name index and one set of bodies per node order, as the
      // endpoint keeps one index: the cache may move on meanwhile, and a call's names are those of
      // the snapshot it takes. Set at the first pair of each instance.
      List<Pod> pods = List.of();
      List<PodInfo> podInfos = List.of();
      Snapshot bodiesFor = null;
      List<String> names = List.of();
      byte[][] bodies = null;
      List<NodeInfo> placed = new ArrayList<>(PLACED);
      ReplyBuffer buf = codec.borrowBuffer();
      InetSocketAddress to = server;
      LoopbackClient http = to == null ? null : new LoopbackClient(to, HTTP_TIMEOUT_MILLIS);
      try {
        for (int i = 0; i < large + smallPairs && !closed; i++) {
          if (i % PAIRS_PER_INSTANCE == 0) {
            if (i > 0) {
              // A new private instance with other pods: its first calls take the live one's.
              current = renew(current.number() + 1);
            }
            pods = WarmUpPods.pendingLike(cache.snapshot(), codec, PODS, current.number());
            podInfos = pods.stream().map(PodInfo::of).toList();
            bodies = new byte[pods.size()][];
            bodiesFor = null;
            current.verbs().newNameIndex();
            placed.clear();
          }
          // Every other pair is the call kube-scheduler makes with its default
          // percentageOfNodesToScore: far fewer names, in its own order. Calls of both shapes take
          // different branches (the parallel loop or the caller's thread alone, a name where the
          // decoder expects it or not), and code compiled on one shape only is thrown away at the
          // first call of the other. The small pairs come last.
          boolean small = i >= large;
          boolean sampledPair = !small && i % 2 == 1;
          List<NodeInfo> overrides = sampledPair ? List.copyOf(placed) : List.of();
          Supplier<Snapshot> snapshots =
              overrides.isEmpty() ? cache::snapshot : () -> withPlaced(cache.snapshot(), overrides);
          Framework framework =
              current.frameworks().get(profiles.get((i / (2 * PODS)) % profiles.size()));
          SeparateVerbs.Pair call = current.verbs().pair(framework, snapshots);
          if (bodiesFor == null || !bodiesFor.sameNodeOrder(call.snapshot())) {
            bodiesFor = call.snapshot();
            names = names(bodiesFor);
            for (int p = 0; p < bodies.length; p++) {
              bodies[p] = codec.encode(new ExtenderArgs(pods.get(p), null, names));
            }
          }
          int pod = (i / 2) % bodies.length;
          List<String> sample =
              small
                  ? small(KubeSchedulerCalls.sampled(names, i))
                  : sampledPair ? KubeSchedulerCalls.sampled(names, i / 2) : names;
          byte[] body =
              small || sampledPair
                  ? codec.encode(new ExtenderArgs(pods.get(pod), null, sample))
                  : bodies[pod];
          if (http != null) {
            pairSnapshots = snapshots;
            if (postPair(http, current.frameworks(), framework, body)) {
              overHttp++;
            } else {
              http = null;
            }
          }
          if (http == null) {
            call.filter(body, buf);
            call.prioritize(body, buf);
          }
          if (sampledPair) {
            place(podInfos.get(pod), call.snapshot().get(sample.get(0)), placed);
          }
          if (!small) {
            readEvents(pods.get(pod), call.snapshot().list().get(i % call.snapshot().size()));
          }
          done = i + 1;
        }
      } finally {
        codec.release(buf);
        if (http != null) {
          http.close();
        }
        pairSnapshots = cache::snapshot;
      }
      long calls = nanoTime.getAsLong();
      String compiled = awaitCompilers(Math.min(compilers.maxWaitNanos(), calls - start));
      long collecting = nanoTime.getAsLong();
      if (!closed) {
        collectGarbage.run();
      }
      log.info(
          "Warm-up: {} filter and prioritize pairs ({} of them small, {} over HTTP) over {} nodes"
              + " in {} ms; {}; the start's garbage collected in {} ms",
          done,
          Math.max(0, done - large),
          overHttp,
          first.size(),
          TimeUnit.NANOSECONDS.toMillis(calls - start),
          compiled,
          TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - collecting));
    } catch (RuntimeException e) {
      log.warn(
          "Warm-up stopped after {} of {} pairs (readiness no longer waits for it): {}",
          done,
          pairs,
          e.toString());
    } finally {
      finished = true;
    }
  }

  /**
   * Waits until the compilers go quiet (less than {@link #QUIET_MILLIS} of their CPU in {@link
   * #QUIET_WINDOW_NANOS}), for no longer than {@code limitNanos} (rounded up to a whole window: the
   * calls' own length, at most {@link Compilers#maxWaitNanos}, as a small cluster's few
   * milliseconds of calls leave little to compile), and says how long it waited. The calls leave
   * the optimising compiler work queued (at 1,000 nodes it was busy for 0.8–1.3 s after the last
   * call); readiness waits for it, so that the first calls after ready run the code it compiles and
   * the first round's CPU is not the warm-up's compilations. A cluster whose kube-scheduler calls
   * already (the verbs answer before ready) keeps the compilers busy: then the wait runs out.
   */
  private String awaitCompilers(long limitNanos) {
    long last = compilers.compiledMillis().getAsLong();
    if (last < 0 || limitNanos <= 0 || closed) {
      return "compilers not waited for";
    }
    waitingForCompilers = true;
    long start = nanoTime.getAsLong();
    long waited;
    while ((waited = nanoTime.getAsLong() - start) < limitNanos && !closed) {
      compilers.park().accept(QUIET_WINDOW_NANOS);
      long now = compilers.compiledMillis().getAsLong();
      if (now - last < QUIET_MILLIS) {
        return "the compilers were done " + TimeUnit.NANOSECONDS.toMillis(waited) + " ms later";
      }
      last = now;
    }
    return "the compilers were still busy after "
        + TimeUnit.NANOSECONDS.toMillis(waited)
        + " ms; not waited for longer";
  }

  /**
   * The node copies carrying warm-up pods that sampled calls see in place of the live ones: as many
   * as kube-scheduler's bindings change between two of its calls. The copies are the warm-up's own;
   * the live cache and its node infos stay as they are.
   */
  static final int PLACED = 2;

  /**
   * Adds to {@code placed} a copy of {@code node} with {@code pod} placed on it, dropping the
   * oldest copy beyond {@link #PLACED} (and an older copy of the same node). The next sampled call
   * then sees one node changed and one back to its live state since the call before, as a call
   * after a binding does: what the plugins carry from call to call is updated for those nodes, a
   * path calls over an unchanged cache never take.
   */
  static void place(PodInfo pod, NodeInfo node, List<NodeInfo> placed) {
    if (node == null) {
      return;
    }
    NodeInfo copy = node.snapshotCopy();
    copy.addPod(pod.assignedTo(node.name()));
    placed.removeIf(n -> n.name().equals(node.name()));
    placed.add(copy);
    if (placed.size() > PLACED) {
      placed.remove(0);
    }
  }

  /** {@code snapshot} with the copies of {@code placed} whose nodes it still has. */
  static Snapshot withPlaced(Snapshot snapshot, List<NodeInfo> placed) {
    List<NodeInfo> present = new ArrayList<>(placed.size());
    for (NodeInfo n : placed) {
      if (snapshot.get(n.name()) != null) {
        present.add(n);
      }
    }
    return snapshot.withOverrides(present);
  }

  /**
   * Posts one pair's filter and prioritize to the warm-up's endpoint; false (logged) when either
   * fails or is not answered 200, after which the caller makes its calls in process.
   */
  private boolean postPair(
      LoopbackClient http, Frameworks frameworks, Framework framework, byte[] body) {
    String base = contextPath + pathPrefix + SeparateVerbs.verbsPath(frameworks, framework);
    String failed;
    try {
      int f = http.post(base + "filter", body);
      int p = f == 200 ? http.post(base + "prioritize", body) : -1;
      if (f == 200 && p == 200) {
        return true;
      }
      failed = "its endpoint answered filter " + f + (p < 0 ? "" : ", prioritize " + p);
    } catch (IOException e) {
      failed = e.toString();
    }
    http.close();
    log.info("Warm-up calls go on in process after {} over HTTP: {}", overHttp, failed);
    return false;
  }

  /**
   * Every node of {@code snapshot}, as in the largest calls: at most 1,000 per call halved the
   * warm-up at 5,000 nodes but left the first calls after ready slower (docs/performance.md).
   */
  private static List<String> names(Snapshot snapshot) {
    List<NodeInfo> nodes = snapshot.list();
    List<String> names = new ArrayList<>(nodes.size());
    for (NodeInfo n : nodes) {
      names.add(n.name());
    }
    return names;
  }

  /**
   * The cluster size up to which every one of the configured large pairs runs; above it they name
   * that many nodes in all ({@link #largePairs}). Not less: what runs once per call over many nodes
   * (the parallel loops' hand-offs, a long name list's decoding, a long reply's encoding) is warmed
   * up by the large pairs alone, as the small ones run on the calling thread. At 5,000 nodes, 80
   * large pairs instead of 400 left the first 150 calls after ready at twice the mean latency
   * (docs/performance.md, "A new private instance every 200 pairs").
   */
  static final int ALL_PAIRS_UP_TO_NODES = 5000;

  /**
   * How many of {@code pairs} large pairs run on a cluster of {@code nodes}: all of them up to
   * {@link #ALL_PAIRS_UP_TO_NODES} nodes, fewer in proportion above, so that the nodes named in all
   * (what the per-node code is compiled on) stay the same and the warm-up's length does not grow
   * with the cluster; never fewer than {@code 2 * PODS}, one of each shape for every pod.
   */
  static int largePairs(int pairs, int nodes) {
    if (nodes <= ALL_PAIRS_UP_TO_NODES) {
      return pairs;
    }
    long scaled = (long) pairs * ALL_PAIRS_UP_TO_NODES / nodes;
    return (int) Math.min(pairs, Math.max(2 * PODS, scaled));
  }

  /**
   * The names of a small pair: the first {@link #SMALL_PAIR_NODES} of {@code sampled}, the names of
   * one of kube-scheduler's calls ({@link KubeSchedulerCalls#sampled}).
   */
  static List<String> small(List<String> sampled) {
    return sampled.subList(0, Math.min(SMALL_PAIR_NODES, sampled.size()));
  }
}

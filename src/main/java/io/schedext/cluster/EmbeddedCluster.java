package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.cache.SchedulerCache;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-memory cluster loaded from a file (or the bundled demo cluster): nodes and assigned pods go to the scheduler
 * cache, unassigned pods wait for a bind, everything else goes to the object store. Bindings are applied in memory
 * the way a watch event would confirm them, so the whole flow can be tried with curl and no cluster. Thread-safe.
 */
public final class EmbeddedCluster implements ClusterSource {

  /** The classpath location of the bundled demo cluster. */
  public static final String DEMO = "cluster/demo-cluster.yaml";

  private static final Logger log = LoggerFactory.getLogger(EmbeddedCluster.class);

  private final SchedulerCache cache;
  private final ObjectStore store;
  private final String file;
  private final Map<String, Pod> pending = new ConcurrentHashMap<>();
  private final Map<String, List<PodInfo>> nominated = new ConcurrentHashMap<>();
  private volatile boolean ready;
  private final PodBinder binder = this::bind;

  /** A cluster read from {@code file} (a path), or the bundled demo cluster when it is null or blank. */
  public EmbeddedCluster(SchedulerCache cache, ObjectStore store, String file) {
    this.cache = cache;
    this.store = store;
    this.file = file == null || file.isBlank() ? null : file;
  }

  @Override
  public String describe() {
    return "embedded cluster from " + (file == null ? "the bundled demo (classpath:" + DEMO + ")" : file);
  }

  @Override
  public void start() {
    List<HasMetadata> objects;
    String name = file == null ? "classpath:" + DEMO : file;
    try (InputStream in = open()) {
      objects = ClusterFile.read(name, in);
    } catch (IOException e) {
      throw new ClusterSourceException("cluster file " + name + ": cannot be read: " + e.getMessage(), e);
    }
    int nodes = 0;
    int assigned = 0;
    for (HasMetadata o : objects) {
      if (o instanceof Node n) {
        cache.addNode(n);
        nodes++;
      }
    }
    for (HasMetadata o : objects) {
      if (o instanceof Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
          continue;
        }
        PodInfo info = PodInfo.of(p);
        if (!info.nodeName().isEmpty()) {
          try {
            cache.addPod(info);
          } catch (FrameworkException e) {
            throw new ClusterSourceException("cluster file " + name + ": pod " + info.key() + ": " + e.getMessage(), e);
          }
          assigned++;
        } else {
          pending.put(info.uid(), p);
          String nominatedNode = p.getStatus() == null ? null : p.getStatus().getNominatedNodeName();
          if (nominatedNode != null && !nominatedNode.isEmpty()) {
            nominated.computeIfAbsent(nominatedNode, k -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(info);
          }
        }
      } else if (!(o instanceof Node)) {
        store.put(o);
      }
    }
    ready = true;
    log.info("Loaded {}: {} nodes, {} assigned pods, {} pending pods, {} other objects", describe(), nodes, assigned,
        pending.size(), objects.size() - nodes - assigned - pending.size());
  }

  private InputStream open() throws IOException {
    if (file == null) {
      InputStream in = EmbeddedCluster.class.getClassLoader().getResourceAsStream(DEMO);
      if (in == null) {
        throw new IOException("the bundled demo cluster is missing from the classpath");
      }
      return in;
    }
    if (file.startsWith("classpath:")) {
      InputStream in = EmbeddedCluster.class.getClassLoader().getResourceAsStream(file.substring(10));
      if (in == null) {
        throw new IOException("no such classpath resource");
      }
      return in;
    }
    return Files.newInputStream(Path.of(file));
  }

  @Override
  public boolean isReady() {
    return ready;
  }

  @Override
  public String notReadyReason() {
    return ready ? "" : "the cluster file is not loaded yet";
  }

  @Override
  public PodBinder binder() {
    return binder;
  }

  @Override
  public PodNominator nominator() {
    return node -> nominated.getOrDefault(node, List.of());
  }

  @Override
  public Pod findPod(String namespace, String name, String uid) {
    if (uid != null && !uid.isEmpty()) {
      Pod p = pending.get(uid);
      if (p != null) {
        return p;
      }
    }
    for (Pod p : pending.values()) {
      if (namespace.equals(p.getMetadata().getNamespace()) && name.equals(p.getMetadata().getName())) {
        return p;
      }
    }
    return null;
  }

  /** The pods still waiting to be bound. */
  public List<Pod> pendingPods() {
    return new ArrayList<>(pending.values());
  }

  /**
   * Applies a binding in memory, as the API server plus a watch event would: the pod gets its node and the cache
   * confirms it. Already bound to that node is success; bound elsewhere is an error.
   */
  private synchronized void bind(PodInfo pod, String nodeName) {
    if (cache.snapshot().get(nodeName) == null) {
      throw new FrameworkException("node \"" + nodeName + "\" not found");
    }
    PodInfo cached = cache.getPod(pod.uid());
    if (cached != null && !cache.isAssumedPod(pod.uid())) {
      if (cached.nodeName().equals(nodeName)) {
        return;
      }
      throw new FrameworkException("pod " + pod.key() + " is already bound to node " + cached.nodeName());
    }
    Pod waiting = pending.remove(pod.uid());
    PodInfo bound = (waiting == null ? pod : PodInfo.of(waiting)).assignedTo(nodeName);
    cache.addPod(bound);
    nominated.values().forEach(l -> l.removeIf(p -> p.uid().equals(pod.uid())));
  }
}

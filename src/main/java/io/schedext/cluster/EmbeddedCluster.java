package io.schedext.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.schedext.cache.SchedulerCache;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodBinder;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PodNominator;
import io.schedext.framework.ResourceClaimWriter;
import io.schedext.framework.VolumeWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-memory cluster loaded from a file (or the bundled demo cluster): nodes and assigned pods go
 * to the scheduler cache, unassigned pods wait for a bind, everything else goes to the object
 * store. Bindings are applied in memory the way a watch event would confirm them, and volume writes
 * like the API server would apply them (resource version check, new version), followed by {@link
 * EmbeddedVolumeController} playing the PV controller, and so are ResourceClaim writes (the
 * allocation and reservation DynamicResources records), so the whole flow can be tried with curl
 * and no cluster. PVs, PVCs and ResourceClaims loaded without a UID or resource version get one.
 * Thread-safe.
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
  private final AtomicLong versions = new AtomicLong();
  private final EmbeddedVolumeController volumeController;
  private final VolumeWriter volumeWriter = new Volumes();
  private final ResourceClaimWriter claimWriter = new Claims();

  /**
   * A cluster read from {@code file} (a path), or the bundled demo cluster when it is null or
   * blank.
   */
  public EmbeddedCluster(SchedulerCache cache, ObjectStore store, String file) {
    this.cache = cache;
    this.store = store;
    this.file = file == null || file.isBlank() ? null : file;
    this.volumeController =
        new EmbeddedVolumeController(
            store,
            versions::incrementAndGet,
            node -> {
              NodeInfo n = cache.snapshot().get(node);
              return n == null ? null : n.labels();
            });
  }

  @Override
  public String describe() {
    return "embedded cluster from "
        + (file == null ? "the bundled demo (classpath:" + DEMO + ")" : file);
  }

  @Override
  public void start() {
    List<HasMetadata> objects;
    String name = file == null ? "classpath:" + DEMO : file;
    try (InputStream in = open()) {
      objects = ClusterFile.read(name, in);
    } catch (IOException e) {
      throw new ClusterSourceException(
          "cluster file " + name + ": cannot be read: " + e.getMessage(), e);
    }
    int nodes = 0;
    int assigned = 0;
    stampVolumes(objects);
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
            throw new ClusterSourceException(
                "cluster file " + name + ": pod " + info.key() + ": " + e.getMessage(), e);
          }
          assigned++;
        } else {
          pending.put(info.uid(), p);
          String nominatedNode =
              p.getStatus() == null ? null : p.getStatus().getNominatedNodeName();
          if (nominatedNode != null && !nominatedNode.isEmpty()) {
            nominated.computeIfAbsent(nominatedNode, k -> new CopyOnWriteArrayList<>()).add(info);
          }
        }
      } else if (!(o instanceof Node)) {
        store.put(o);
      }
    }
    ready = true;
    log.info(
        "Loaded {}: {} nodes, {} assigned pods, {} pending pods, {} other objects",
        describe(),
        nodes,
        assigned,
        pending.size(),
        objects.size() - nodes - assigned - pending.size());
  }

  /**
   * Gives loaded PVs, PVCs and ResourceClaims the UID and resource version the API server would
   * have, when they lack one.
   */
  private void stampVolumes(List<HasMetadata> objects) {
    long max = 0;
    for (HasMetadata o : objects) {
      String rv = o.getMetadata().getResourceVersion();
      if (rv != null && rv.matches("[0-9]{1,18}")) {
        max = Math.max(max, Long.parseLong(rv));
      }
    }
    versions.set(max);
    for (HasMetadata o : objects) {
      if (!(o instanceof PersistentVolume)
          && !(o instanceof PersistentVolumeClaim)
          && !(o instanceof ResourceClaim)) {
        continue;
      }
      ObjectMeta m = o.getMetadata();
      if (m.getResourceVersion() == null || m.getResourceVersion().isEmpty()) {
        m.setResourceVersion(Long.toString(versions.incrementAndGet()));
      }
      if (m.getUid() == null || m.getUid().isEmpty()) {
        String id =
            o.getKind()
                + "/"
                + (m.getNamespace() == null ? "" : m.getNamespace())
                + "/"
                + m.getName();
        m.setUid(UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8)).toString());
      }
    }
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
      InputStream in =
          EmbeddedCluster.class.getClassLoader().getResourceAsStream(file.substring(10));
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
  public VolumeWriter volumeWriter() {
    return volumeWriter;
  }

  @Override
  public ResourceClaimWriter claimWriter() {
    return claimWriter;
  }

  @Override
  public PodNominator nominator() {
    return PodNominator.of(node -> nominated.getOrDefault(node, List.of()), nominated::isEmpty);
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
      if (namespace.equals(p.getMetadata().getNamespace())
          && name.equals(p.getMetadata().getName())) {
        return p;
      }
    }
    return null;
  }

  @Override
  public List<Pod> pendingPods() {
    return new ArrayList<>(pending.values());
  }

  /**
   * Applies a binding in memory, as the API server plus a watch event would: the pod gets its node
   * and the cache confirms it. Already bound to that node is success; bound elsewhere is an error.
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
      throw new FrameworkException(
          "pod " + pod.key() + " is already bound to node " + cached.nodeName());
    }
    Pod waiting = pending.remove(pod.uid());
    PodInfo bound = (waiting == null ? pod : PodInfo.of(waiting)).assignedTo(nodeName);
    cache.addPod(bound);
    nominated.values().forEach(l -> l.removeIf(p -> p.uid().equals(pod.uid())));
  }

  /**
   * ResourceClaim writes applied to the object store as the API server would: a resource version
   * check (409 on a stale claim), a new version; the status subresource replaces only the status,
   * the object only the rest.
   */
  private final class Claims implements ResourceClaimWriter {
    @Override
    public ResourceClaim get(String namespace, String name) {
      ResourceClaim c = store.resourceClaim(namespace, name);
      if (c == null) {
        throw new NotFound("resourceclaims.resource.k8s.io \"" + name + "\" not found", null);
      }
      return c;
    }

    @Override
    public synchronized ResourceClaim update(ResourceClaim claim) {
      ResourceClaim stored = checked(claim);
      return write(new ResourceClaimBuilder(claim).withStatus(stored.getStatus()).build(), stored);
    }

    @Override
    public synchronized ResourceClaim updateStatus(ResourceClaim claim) {
      ResourceClaim stored = checked(claim);
      return write(new ResourceClaimBuilder(stored).withStatus(claim.getStatus()).build(), stored);
    }

    @Override
    public synchronized ResourceClaim removeReservation(ResourceClaim claim, String podUid) {
      ResourceClaim stored = get(claim.getMetadata().getNamespace(), claim.getMetadata().getName());
      if (!stored.getMetadata().getUid().equals(claim.getMetadata().getUid())) {
        throw new Conflict(
            "Precondition failed: UID in precondition: "
                + claim.getMetadata().getUid()
                + ", UID in object meta: "
                + stored.getMetadata().getUid(),
            null);
      }
      ResourceClaim out = new ResourceClaimBuilder(stored).build();
      if (out.getStatus() != null && out.getStatus().getReservedFor() != null) {
        List<ResourceClaimConsumerReference> kept = new ArrayList<>();
        for (ResourceClaimConsumerReference r : out.getStatus().getReservedFor()) {
          if (!podUid.equals(r.getUid())) {
            kept.add(r);
          }
        }
        out.getStatus().setReservedFor(kept);
      }
      return write(out, stored);
    }

    private ResourceClaim checked(ResourceClaim claim) {
      String name = claim.getMetadata().getName();
      ResourceClaim stored = get(claim.getMetadata().getNamespace(), name);
      String rv = claim.getMetadata().getResourceVersion();
      if (rv != null && !rv.isEmpty() && !rv.equals(stored.getMetadata().getResourceVersion())) {
        throw new Conflict(
            "Operation cannot be fulfilled on resourceclaims.resource.k8s.io \""
                + name
                + "\": the object has been modified; please apply your changes to the latest"
                + " version and try again",
            null);
      }
      return stored;
    }

    private ResourceClaim write(ResourceClaim next, ResourceClaim stored) {
      next.getMetadata().setResourceVersion(stored.getMetadata().getResourceVersion());
      if (next.equals(stored)) {
        return stored;
      }
      next.getMetadata().setResourceVersion(Long.toString(versions.incrementAndGet()));
      store.put(next);
      return next;
    }
  }

  /**
   * Volume writes applied to the object store as the API server would, then handed to the PV
   * controller stand-in.
   */
  private final class Volumes implements VolumeWriter {
    @Override
    public PersistentVolume updatePersistentVolume(PersistentVolume pv) {
      synchronized (volumeController) {
        String name = pv.getMetadata().getName();
        PersistentVolume stored = store.persistentVolume(name);
        checkVersion("persistentvolumes", name, pv, stored);
        if (stored.equals(pv)) {
          return stored;
        }
        PersistentVolume written =
            new PersistentVolumeBuilder(pv)
                .editMetadata()
                .withResourceVersion(Long.toString(versions.incrementAndGet()))
                .endMetadata()
                .build();
        store.put(written);
        volumeController.volumeWritten(written);
        return written;
      }
    }

    @Override
    public PersistentVolumeClaim updatePersistentVolumeClaim(PersistentVolumeClaim pvc) {
      synchronized (volumeController) {
        String ns =
            pvc.getMetadata().getNamespace() == null ? "" : pvc.getMetadata().getNamespace();
        String name = pvc.getMetadata().getName();
        PersistentVolumeClaim stored = store.persistentVolumeClaim(ns, name);
        checkVersion("persistentvolumeclaims", name, pvc, stored);
        if (stored.equals(pvc)) {
          return stored;
        }
        PersistentVolumeClaim written =
            new PersistentVolumeClaimBuilder(pvc)
                .editMetadata()
                .withResourceVersion(Long.toString(versions.incrementAndGet()))
                .endMetadata()
                .build();
        store.put(written);
        volumeController.claimWritten(written);
        return written;
      }
    }

    @Override
    public boolean podExists(String namespace, String name) {
      if (findPod(namespace, name, "") != null) {
        return true;
      }
      return cache.pods().stream()
          .anyMatch(p -> p.namespace().equals(namespace) && p.name().equals(name));
    }

    /**
     * The API server's NotFound and Conflict answers to an update (an empty resource version is
     * unconditional); an update that changes nothing keeps the stored version and makes no event,
     * as there.
     */
    private void checkVersion(
        String resource, String name, HasMetadata update, HasMetadata stored) {
      if (stored == null) {
        throw new FrameworkException(resource + " \"" + name + "\" not found");
      }
      String rv = update.getMetadata().getResourceVersion();
      if (rv != null && !rv.isEmpty() && !rv.equals(stored.getMetadata().getResourceVersion())) {
        throw new FrameworkException(
            "Operation cannot be fulfilled on "
                + resource
                + " \""
                + name
                + "\": the object "
                + "has been modified; please apply your changes to the latest version and try again");
      }
    }
  }
}

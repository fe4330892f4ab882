package io.schedext.testing;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Taint;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds test nodes in one line, as upstream's {@code st.MakeNode()}: {@code
 * MakeNode.node().name("n1").capacity( Map.of("cpu", "4", "pods", "110")).obj()}. Capacity sets
 * both capacity and allocatable.
 */
public final class NodeWrapper {

  private final Node node;

  NodeWrapper() {
    node = new Node();
    node.setMetadata(new ObjectMeta());
    node.setSpec(new NodeSpec());
    node.setStatus(new NodeStatus());
  }

  /** The node. */
  public Node obj() {
    if (node.getMetadata().getUid() == null) {
      node.getMetadata().setUid(node.getMetadata().getName());
    }
    return node;
  }

  /** A NodeInfo for this node holding {@code pods}. */
  public NodeInfo info(PodInfo... pods) {
    return NodeInfo.of(obj(), pods);
  }

  public NodeWrapper name(String name) {
    node.getMetadata().setName(name);
    return this;
  }

  public NodeWrapper label(String k, String v) {
    if (node.getMetadata().getLabels() == null) {
      node.getMetadata().setLabels(new LinkedHashMap<>());
    }
    node.getMetadata().getLabels().put(k, v);
    return this;
  }

  public NodeWrapper labels(Map<String, String> l) {
    l.forEach(this::label);
    return this;
  }

  public NodeWrapper annotation(String k, String v) {
    if (node.getMetadata().getAnnotations() == null) {
      node.getMetadata().setAnnotations(new LinkedHashMap<>());
    }
    node.getMetadata().getAnnotations().put(k, v);
    return this;
  }

  /** Sets capacity and allocatable. */
  public NodeWrapper capacity(Map<String, String> c) {
    node.getStatus().setCapacity(PodWrapper.quantities(c));
    node.getStatus().setAllocatable(PodWrapper.quantities(c));
    return this;
  }

  /** Sets allocatable only. */
  public NodeWrapper allocatable(Map<String, String> c) {
    node.getStatus().setAllocatable(PodWrapper.quantities(c));
    return this;
  }

  public NodeWrapper taint(String key, String value, String effect) {
    if (node.getSpec().getTaints() == null) {
      node.getSpec().setTaints(new ArrayList<>());
    }
    Taint t = new Taint();
    t.setKey(key);
    t.setValue(value);
    t.setEffect(effect);
    node.getSpec().getTaints().add(t);
    return this;
  }

  public NodeWrapper unschedulable(boolean u) {
    node.getSpec().setUnschedulable(u);
    return this;
  }

  /** Adds an image with these names and size. */
  public NodeWrapper image(long sizeBytes, String... names) {
    if (node.getStatus().getImages() == null) {
      node.getStatus().setImages(new ArrayList<>());
    }
    ContainerImage img = new ContainerImage();
    img.setNames(new ArrayList<>(List.of(names)));
    img.setSizeBytes(sizeBytes);
    node.getStatus().getImages().add(img);
    return this;
  }

  public NodeWrapper resourceVersion(String rv) {
    node.getMetadata().setResourceVersion(rv);
    return this;
  }
}

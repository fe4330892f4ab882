package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.Node;
import java.util.List;

/**
 * A {@code v1.NodeList} as kube-scheduler writes it: {@code {"metadata":{},"items":[...]}}, with
 * {@code items} always present (an empty list, never missing).
 *
 * @param metadata list metadata (empty)
 * @param items the nodes
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"metadata", "items"})
public record NodeItems(
    @JsonProperty("metadata") ListMeta metadata, @JsonProperty("items") List<Node> items) {

  /** A list of these nodes with empty metadata. */
  public static NodeItems of(List<Node> items) {
    return new NodeItems(new ListMeta(), items);
  }
}

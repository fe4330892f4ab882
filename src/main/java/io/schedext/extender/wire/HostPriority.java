package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One node's score in a prioritize reply (the reply is a bare JSON array of these).
 *
 * @param host the node name
 * @param score 0 ({@code MinExtenderPriority}) to 10 ({@code MaxExtenderPriority})
 */
@JsonPropertyOrder({"Host", "Score"})
@JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
public record HostPriority(@JsonProperty("Host") String host, @JsonProperty("Score") long score) {

  /** The lowest extender score. */
  public static final long MIN_EXTENDER_PRIORITY = 0;

  /** The highest extender score. */
  public static final long MAX_EXTENDER_PRIORITY = 10;
}

package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The bind call.
 *
 * @param podName the pod name
 * @param podNamespace the pod namespace
 * @param podUid the pod UID
 * @param node the node to bind to
 */
@JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
public record ExtenderBindingArgs(
    @JsonProperty("PodName") String podName,
    @JsonProperty("PodNamespace") String podNamespace,
    @JsonProperty("PodUID") String podUid,
    @JsonProperty("Node") String node) {}

package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * Victims on one node as full pods ({@code nodeCacheCapable: false}).
 *
 * @param pods the pods to evict
 * @param numPdbViolations how many of them violate a PodDisruptionBudget
 */
@JsonPropertyOrder({"Pods", "NumPDBViolations"})
@JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
public record Victims(
    @JsonProperty("Pods") List<Pod> pods,
    @JsonProperty("NumPDBViolations") long numPdbViolations) {}

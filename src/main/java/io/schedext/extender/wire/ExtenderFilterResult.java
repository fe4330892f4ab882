package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Map;

/**
 * The filter reply: the nodes that fit, in the same field the request used, and why the others do
 * not.
 *
 * @param nodes fitting nodes when the request sent {@code Nodes}, else null
 * @param nodeNames fitting node names when the request sent {@code NodeNames}, else null
 * @param failedNodes node → reason for Unschedulable nodes (preemption may help)
 * @param failedAndUnresolvableNodes node → reason for nodes preemption cannot help
 * @param error a non-empty text fails the whole scheduling attempt
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error"})
@JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
public record ExtenderFilterResult(
    @JsonProperty("Nodes") NodeItems nodes,
    @JsonProperty("NodeNames") List<String> nodeNames,
    @JsonProperty("FailedNodes") @JsonSerialize(using = ReasonMapSerializer.class)
        Map<String, String> failedNodes,
    @JsonProperty("FailedAndUnresolvableNodes") @JsonSerialize(using = ReasonMapSerializer.class)
        Map<String, String> failedAndUnresolvableNodes,
    @JsonProperty("Error") String error) {}

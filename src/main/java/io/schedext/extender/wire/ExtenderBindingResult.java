package io.schedext.extender.wire;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The bind reply; an empty {@code Error} means bound. Also the shape of every error reply of this
 * service.
 *
 * @param error what went wrong, or ""
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
public record ExtenderBindingResult(@JsonProperty("Error") String error) {}

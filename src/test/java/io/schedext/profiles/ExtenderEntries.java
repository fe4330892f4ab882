package io.schedext.profiles;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.kube.QualifiedNames;
import io.schedext.kube.ResourceNames;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks a KubeSchedulerConfiguration's {@code extenders} must pass before kube-scheduler
 * (upstream's {@code validateExtenders}, with its messages) and this extender (urlPrefix, verbs,
 * TLS settings) can work together. Returns problems instead of throwing, so a test can compare
 * them.
 */
final class ExtenderEntries {

  private static final List<String> FIELDS =
      List.of(
          "urlPrefix",
          "filterVerb",
          "preemptVerb",
          "prioritizeVerb",
          "weight",
          "bindVerb",
          "enableHTTPS",
          "tlsConfig",
          "httpTimeout",
          "nodeCacheCapable",
          "managedResources",
          "ignorable");
  private static final List<String> TLS_FIELDS =
      List.of(
          "insecure",
          "serverName",
          "certFile",
          "keyFile",
          "caFile",
          "certData",
          "keyData",
          "caData");
  private static final List<String> VERB_FIELDS =
      List.of("filterVerb", "prioritizeVerb", "preemptVerb", "bindVerb");
  private static final Pattern GO_DURATION =
      Pattern.compile("([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+");
  private static final Pattern EXTENDER_PATH =
      Pattern.compile("https?://[^/]+(/scheduler|/profiles/[^/]+)");

  private ExtenderEntries() {}

  /**
   * Every problem of {@code extenders} (the list under the configuration's {@code extenders} key).
   */
  static List<String> problems(JsonNode extenders) {
    List<String> out = new ArrayList<>();
    if (extenders == null || !extenders.isArray() || extenders.isEmpty()) {
      out.add("extenders: Required value: the file registers no extender");
      return out;
    }
    int binders = 0;
    Set<String> managed = new HashSet<>();
    for (int i = 0; i < extenders.size(); i++) {
      String path = "extenders[" + i + "]";
      JsonNode e = extenders.get(i);
      unknownFields(e, path, FIELDS, out);
      String url = e.path("urlPrefix").asText("");
      boolean https = e.path("enableHTTPS").asBoolean(false);
      if (url.isEmpty()) {
        out.add(path + ".urlPrefix: Required value");
      } else if (!EXTENDER_PATH.matcher(url).matches()) {
        out.add(
            path
                + ".urlPrefix: Invalid value: \""
                + url
                + "\": must be http(s)://<host>[:<port>]/scheduler or "
                + "/profiles/<profile>");
      } else if (url.startsWith("https://") != https) {
        out.add(
            path
                + ".urlPrefix: Invalid value: \""
                + url
                + "\": the scheme must be https exactly when "
                + "enableHTTPS is true");
      }
      if (VERB_FIELDS.stream().noneMatch(v -> e.hasNonNull(v))) {
        out.add(
            path
                + ": Required value: at least one of filterVerb, prioritizeVerb, preemptVerb, bindVerb");
      }
      for (String v : VERB_FIELDS) {
        String verb = v.replace("Verb", "");
        if (e.hasNonNull(v) && !verb.equals(e.get(v).asText())) {
          out.add(
              path
                  + "."
                  + v
                  + ": Unsupported value: \""
                  + e.get(v).asText()
                  + "\": supported values: \""
                  + verb
                  + "\" (the extender's "
                  + verb
                  + " endpoint)");
        }
      }
      if (e.hasNonNull("prioritizeVerb") && e.path("weight").asLong(0) <= 0) {
        out.add(
            path
                + ".weight: Invalid value: "
                + e.path("weight").asLong(0)
                + ": must have a positive weight applied to it");
      }
      if (e.hasNonNull("bindVerb")) {
        binders++;
      }
      JsonNode resources = e.path("managedResources");
      for (int j = 0; j < resources.size(); j++) {
        String rp = path + ".managedResources[" + j + "].name";
        unknownFields(
            resources.get(j),
            path + ".managedResources[" + j + "]",
            List.of("name", "ignoredByScheduler"),
            out);
        String name = resources.get(j).path("name").asText("");
        if (!QualifiedNames.isQualifiedName(name) || !ResourceNames.isExtended(name)) {
          out.add(rp + ": Invalid value: \"" + name + "\": is an invalid extended resource name");
        }
        if (!managed.add(name)) {
          out.add(
              rp + ": Invalid value: \"" + name + "\": duplicate extender managed resource name");
        }
      }
      JsonNode tls = e.get("tlsConfig");
      if (tls != null) {
        unknownFields(tls, path + ".tlsConfig", TLS_FIELDS, out);
        if (!https) {
          out.add(
              path
                  + ".tlsConfig: Invalid value: the settings are only used with enableHTTPS: true");
        }
        if (tls.hasNonNull("certFile") != tls.hasNonNull("keyFile")) {
          out.add(
              path
                  + ".tlsConfig: Invalid value: a client certificate needs both certFile and keyFile");
        }
      }
      if (e.hasNonNull("httpTimeout")
          && !GO_DURATION.matcher(e.get("httpTimeout").asText()).matches()) {
        out.add(
            path
                + ".httpTimeout: Invalid value: \""
                + e.get("httpTimeout").asText()
                + "\": not a duration");
      }
    }
    if (binders > 1) {
      out.add(
          "extenders: Invalid value: \"found "
              + binders
              + " extenders implementing bind\": only one extender "
              + "can implement bind");
    }
    return out;
  }

  private static void unknownFields(
      JsonNode object, String path, List<String> allowed, List<String> out) {
    for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) {
        out.add(path + "." + f + ": unknown field");
      }
    }
  }
}

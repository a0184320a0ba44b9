/* An extension's own schema, generated into the package of core.yaml's output, whose Tool it uses. */

/** The UI of a tool, as the extension describes it. */
export interface ToolUI {
  /** The tool the UI is for. */
  tool: Tool;
  /** The resource that renders the UI. */
  resourceUri: string;
  /** Who may call the tool. */
  visibility?: ("model" | "app")[];
}

/** The core protocol's Tool, which ext.yaml substitutes by the Tool of the package. */
export interface Tool {
  name: string;
}

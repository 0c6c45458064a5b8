// Timeline webview entry. (Filled in by the timeline work.)
export {};

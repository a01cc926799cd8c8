export { TEMPLATES, type TemplateInfo, templateNames, findTemplate, templatesDirUrl, templateFileUrl, templateAssetUrl } from './catalogue.js';
export { renameWorkflow, countRules, condaEnvFiles, expandBraces, nearestName } from './template-text.js';
export { projectReadme, projectGitignore, placeholderContent, type ProjectReadmeInput } from './project-files.js';
